import EstimatorKit
import Testing

@Suite struct PersonNameTests {
    @Test func aShortNameIsKeptAsTyped() throws {
        let (name, warnings) = try PersonName.parse("Alice")
        #expect(name.text == "Alice")
        #expect(warnings.isEmpty)
    }

    @Test func surroundingSpacesAreTrimmed() throws {
        #expect(try PersonName.parse("  Bob \n").name.text == "Bob")
    }

    @Test func decomposedKoreanIsComposedBeforeCounting() throws {
        let nfd = "\u{110C}\u{1165}\u{11AB}\u{1109}\u{116E}\u{110B}\u{1167}\u{11AF}"  // 전수열 in jamo
        #expect(nfd.utf8.count == 24)
        let (name, warnings) = try PersonName.parse(nfd)
        #expect(Array(name.text.utf8) == Array("전수열".utf8))
        #expect(warnings.isEmpty)
    }

    @Test func decomposedLatinIsComposed() throws {
        #expect(Array(try PersonName.parse("Jose\u{301}").name.text.utf8) == Array("José".utf8))
    }

    @Test func longNamesAreCutBetweenHangulSyllables() throws {
        let (name, warnings) = try PersonName.parse("전수열전수열")  // 18 bytes
        #expect(name.text == "전수열전")  // 12 bytes
        #expect(warnings == [.shortened(from: "전수열전수열", to: "전수열전")])
    }

    @Test func aCutDropsTheSpaceItWouldEndWith() throws {
        let (name, warnings) = try PersonName.parse("Christopher Robin")
        #expect(name.text == "Christopher")
        #expect(warnings == [.shortened(from: "Christopher Robin", to: "Christopher")])
    }

    @Test func anyNameIsCutOnlyAPasteIsRefused() throws {
        for text in [String(repeating: "x", count: 64), String(repeating: "x", count: 300)] {
            let (name, warnings) = try PersonName.parse(text)
            #expect(name.text == String(repeating: "x", count: 12))
            #expect(warnings == [.shortened(from: text, to: name.text)])
        }
        #expect(try PersonName.parse(String(repeating: "전", count: 100)).name.text == "전전전전")
        #expect(throws: PersonNameError.tooLong(byteCount: 4097)) { try PersonName.parse(String(repeating: "x", count: 4097)) }
    }

    @Test func aCutNeverSplitsAnEmojiWithASkinTone() throws {
        // 👍🏽 is 8 bytes: after 5 ASCII bytes it no longer fits and goes whole.
        let (name, _) = try PersonName.parse("Alice👍🏽")
        #expect(name.text == "Alice")
        let (fits, warnings) = try PersonName.parse("Ali👍🏽")
        #expect(fits.text == "Ali👍🏽")
        #expect(warnings.isEmpty)
    }

    @Test func aCutNeverSplitsAZWJSequence() throws {
        let family = "👨‍👩‍👧"  // 18 bytes, one character
        #expect(throws: PersonNameError.firstCharacterTooLong(byteCount: 18)) {
            try PersonName.parse(family)
        }
        let (name, warnings) = try PersonName.parse("Jo" + family)
        #expect(name.text == "Jo")
        #expect(warnings == [.shortened(from: "Jo" + family, to: "Jo")])
    }

    @Test func everyCutIsWholeCharactersAndAtMostTwelveBytes() throws {
        for input in ["abcdefghijklmnop", "ÄÖÜäöüßÄÖÜ", "漢字漢字漢字", "🇰🇷🇯🇵🇺🇸", "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}"] {
            let (name, _) = try PersonName.parse(input)
            #expect(name.text.utf8.count <= 12)
            #expect(input.startsWithCharacters(name.text))
        }
    }

    @Test func aOneCharacterNameIsAcceptedWithAWarning() throws {
        let (name, warnings) = try PersonName.parse("열")
        #expect(name.text == "열")
        #expect(warnings == [.invisibleToApp("열")])
        #expect(warnings[0].description.contains("one-character"))
        #expect(try PersonName.parse("👍🏽").warnings == [.invisibleToApp("👍🏽")])
    }

    @Test func aNameCutToOneCharacterGetsBothWarnings() throws {
        let (_, warnings) = try PersonName.parse("수👨‍👩‍👧")
        #expect(warnings.count == 2)
    }

    @Test(arguments: ["", "   ", "\n"]) func anEmptyNameIsAnError(_ input: String) {
        #expect(throws: PersonNameError.empty) { try PersonName.parse(input) }
    }

    @Test(arguments: [
        ("Bob\u{1B}[31m", "\u{1B}"), ("a\tb", "\t"), ("a\u{0}", "\u{0}"), ("a\u{7F}", "\u{7F}"),
        ("a\u{85}b", "\u{85}"), ("\u{202E}bob", "\u{202E}"), ("a\u{2066}b", "\u{2066}"),
    ] as [(String, Unicode.Scalar)])
    func controlCharactersAreAnError(_ input: String, _ bad: Unicode.Scalar) {
        #expect(throws: PersonNameError.controlCharacter(bad)) { try PersonName.parse(input) }
    }

    @Test func errorsAreOneSentenceNamingTheProblem() {
        #expect(PersonNameError.empty.description == "The name is empty; give a name of 1 to 12 bytes.")
        #expect(PersonNameError.controlCharacter("\u{1B}").description
            == "The name contains the control character U+001B; use printable text only.")
        #expect(PersonNameError.controlCharacter("\u{202E}").description.contains("U+202E"))
        #expect(PersonNameError.firstCharacterTooLong(byteCount: 18).description.contains("18 bytes"))
    }
}

extension String {
    fileprivate func startsWithCharacters(_ prefix: String) -> Bool {
        // Compared per Character, so a cut must end on a character boundary.
        Array(self).starts(with: Array(prefix))
    }
}

/// The clash rule's view of a name (docs/PROTOCOL.md, Peers).
@Suite struct PersonNameClashKeyTests {
    @Test(arguments: [
        ("Gi\u{200B}na", "Gina"), ("\u{FEFF}Gina", "Gina"), ("Gi\u{2060}na\u{FE0F}", "Gina"), ("Gi\u{00AD}na", "Gina"),
        ("Zoe\u{0301}", "Zoé"), ("전수열", "\u{110C}\u{1165}\u{11AB}수열"),
    ])
    func namesThatLookAlikeAreOneName(a: String, b: String) {
        #expect(PersonName.clashKey(a) == PersonName.clashKey(b))
    }

    @Test func namesThatDifferStayTwo() {
        #expect(PersonName.clashKey("Gina") != PersonName.clashKey("Gino"))
        #expect(PersonName.clashKey("Ann") != PersonName.clashKey("Anne"))
        #expect(PersonName.clashKey("ann") != PersonName.clashKey("Ann"), "case tells people apart")
    }
}

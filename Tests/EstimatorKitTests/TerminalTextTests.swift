import EstimatorKit
import Testing

@Suite struct SanitizeTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("전수열", "전수열"),
        ("a\u{1B}[31mred\u{1B}[0m", "ared"),  // SGR colour
        ("a\u{1B}[2J\u{1B}[Hb", "ab"),  // clear screen, cursor home
        ("a\u{1B}[?1049hb", "ab"),  // private-mode CSI
        ("x\u{1B}]52;c;aGVsbG8=\u{07}y", "xy"),  // OSC 52 clipboard write, BEL-terminated
        ("x\u{1B}]0;title\u{1B}\\y", "xy"),  // OSC title, ST-terminated
        ("x\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\y", "xlinky"),  // OSC 8 hyperlink
        ("x\u{1B}P1$r0m\u{1B}\\y", "xy"),  // DCS
        ("x\u{1B}_apc\u{1B}\\y", "xy"),  // APC
        ("x\u{1B}^pm\u{9C}y", "xy"),  // PM ended by C1 ST
        ("x\u{1B}(By", "xy"),  // charset designation: ESC, intermediate, final
        ("x\u{1B}7y\u{1B}8", "xy"),  // two-character escapes
        ("x\u{1B}cy", "xy"),  // full reset
        ("x\u{9B}31my", "xy"),  // C1 CSI
        ("x\u{9D}0;t\u{07}y", "xy"),  // C1 OSC
        ("x\u{90}dcs\u{9C}y", "xy"),  // C1 DCS
        ("x\u{85}y\u{84}", "xy"),  // other C1 controls
        ("a\tb\nc\rd\u{0}e\u{7F}f\u{8}g", "abcdefg"),  // C0 and DEL
        ("\u{202E}evil\u{202C}", "evil"),  // RLO … PDF
        ("\u{2066}a\u{2067}b\u{2068}c\u{2069}", "abc"),  // isolates
        ("\u{202A}\u{202B}\u{202D}x", "x"),
        ("line\u{2028}para\u{2029}", "linepara"),
        ("x\u{1B}[31;\u{1B}[0my", "xy"),  // ESC restarts inside CSI
        ("x\u{1B}[3\u{18}y", "xy"),  // CAN aborts
        ("x\u{1B}[3전y", "x전y"),  // a malformed CSI ends; the character is kept
        ("x\u{1B}전", "x전"),
        ("x\u{1B}", "x"),  // trailing ESC
        ("x\u{1B}]never ends", "x"),  // unterminated OSC hides the rest
        ("👍🏽\u{1B}[1m👨‍👩‍👧", "👍🏽👨‍👩‍👧"),
    ])
    func removesWhatATerminalWouldActOn(_ input: String, _ expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        #expect(TerminalText.sanitize(bytes: [0x41, 0xFF, 0x42]) == "A\u{FFFD}B")
        // Half of 열 (EC 97 B4) at the end.
        #expect(TerminalText.sanitize(bytes: Array("전수".utf8) + [0xEC, 0x97]) == "전수\u{FFFD}")
        // A raw 0x9B byte is not C1 CSI in UTF-8: it is replaced, not obeyed.
        #expect(TerminalText.sanitize(bytes: [0x9B, 0x33, 0x31, 0x6D]) == "\u{FFFD}31m")
        #expect(TerminalText.sanitize(bytes: [0x1B, 0x5B, 0x32, 0x4A, 0x61]) == "a")
    }

    @Test func sanitisingTwiceChangesNothing() {
        let nasty = "\u{1B}[1;\u{1B}]0;\u{9C}a\u{1B}\u{1B}[m\u{202E}b"
        let once = TerminalText.sanitize(nasty)
        #expect(TerminalText.sanitize(once) == once)
    }
}

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("", 0),
        ("Alice", 5),
        ("전수열", 6),  // Hangul syllables
        ("\u{1109}\u{1165}\u{11AB}", 2),  // NFD 선: one syllable from jamo
        ("漢字", 4),
        ("かな カナ", 9),
        ("ＡＢ", 4),  // fullwidth Latin
        ("ｶﾅ", 2),  // halfwidth katakana
        ("👍", 2),
        ("👍🏽", 2),  // skin tone: one cluster
        ("👨‍👩‍👧‍👦", 2),  // ZWJ family: one cluster
        ("🏳️‍🌈", 2),
        ("🇰🇷", 2),  // flag
        ("☕", 2),  // emoji presentation by default
        ("❤", 1),  // text presentation by default
        ("❤️", 2),  // … made an emoji by VS16
        ("☕︎", 1),  // … or made text by VS15
        ("1️⃣", 2),  // keycap
        ("☝🏽", 2),  // text-default base with a skin tone
        ("e\u{301}", 1),  // combining acute
        ("\u{301}", 0),  // a lone combining mark draws on the previous cell
        ("a\u{200B}b", 2),  // zero-width space
        ("a\u{200D}b", 2),  // lone ZWJ
        ("½—?", 3),
        ("\u{3000}", 2),  // ideographic space
        ("a\u{1B}b", 2),  // controls take no column
    ])
    func columns(_ text: String, _ expected: Int) {
        #expect(TerminalText.displayWidth(text) == expected)
    }
}

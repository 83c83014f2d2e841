import EstimatorKit
import Testing

@Suite struct PacketTests {
    @Test func theAppsBlogVectorIsVersion00Channel1CoffeeFromJeon() throws {
        let packet = try Packet(decoding: "0001FE전수열")
        #expect(packet == Packet(version: .v00, channel: Channel(rawValue: 1), card: .coffee, name: "전수열"))
    }

    @Test func theAppsCurrentVersionOnTheDefaultChannel() throws {
        let packet = try Packet(decoding: "010008전수열")
        #expect(packet.version == .v01)
        #expect(packet.channel == .default)
        #expect(packet.card == .eight)
        #expect(packet.name == "전수열")
    }

    @Test func encodesTheAppsForm() throws {
        let name = try PersonName.parse("전수열").name
        let packet = Packet(channel: Channel(rawValue: 1), card: .eight, name: name)
        #expect(packet.localName == "010108전수열")
        #expect(packet.localName.utf8.count == 15)
    }

    @Test func aFullPacketIsEighteenBytes() throws {
        let name = try PersonName.parse("전수열전수열전수열").name
        let packet = Packet(channel: Channel(rawValue: 255), card: .none, name: name)
        #expect(packet.localName == "01FFFF전수열전")
        #expect(packet.localName.utf8.count == Packet.maxUTF8Count)
        #expect(Packet.maxUTF8Count == 18)
    }

    /// docs/PROTOCOL.md, Cards: the vectors of decks.
    @Test(arguments: [
        ("010115Ann", "30 31 30 31 31 35 41 6E 6E", "21"), ("010122Ann", "30 31 30 31 32 32 41 6E 6E", "34"),
        ("010140Ann", "30 31 30 31 34 30 41 6E 6E", "64"), ("010164Ann", "30 31 30 31 36 34 41 6E 6E", "100"),
        ("01017EAnn", "30 31 30 31 37 45 41 6E 6E", "126"), ("01017FAnn", "30 31 30 31 37 46 41 6E 6E", "0.5"),
        ("010180Ann", "30 31 30 31 38 30 41 6E 6E", "XS"), ("230182Ann", "32 33 30 31 38 32 41 6E 6E", "M"),
        ("010185Ann", "30 31 30 31 38 35 41 6E 6E", "XXL"), ("010142Eve", "30 31 30 31 34 32 45 76 65", "66"),
    ])
    func theDeckVectorsDecodeToTheirCards(_ text: String, _ hex: String, _ card: String) throws {
        #expect(text.utf8.map { Hex.text([$0]) }.joined(separator: " ") == hex)
        let packet = try Packet(decoding: text)
        #expect(packet.card.name == card)
        #expect(packet.localName == text, "sent as it is read")
        #expect(try Packet(decoding: "010186Ann").card.name == nil, "86, past XXL, is unknown")
        #expect(try Packet(decoding: "010199Eve").card.description == "?99")
    }

    @Test(arguments: Deck.app.cards + Card.sizes + [.question, .coffee, .waiting, .none, Card(rawValue: 0x42), Card(rawValue: 0x99)])
    func everyCardGoesBothWays(_ card: Card) throws {
        let packet = Packet(channel: Channel(rawValue: 7), card: card, name: try PersonName.parse("Ann").name)
        #expect(packet.localName == "0107\(card.hex)Ann")
        #expect(try Packet(decoding: packet.localName) == packet)
        #expect(try Packet(decoding: Array(packet.localName.utf8)) == packet)
    }

    @Test func theRoundTravelsInTheVersionField() throws {
        let name = try PersonName.parse("전수열").name
        let packet = Packet(channel: Channel(rawValue: 1), card: .waiting, name: name, round: RoundNumber(wrapping: 11))
        #expect(packet.localName == "2B01FC전수열")
        #expect(try Packet(decoding: "2B01FC전수열") == packet)
        #expect(try Packet(decoding: "2b0105Ann").round == RoundNumber(wrapping: 11))
        #expect(try Packet(decoding: "010105Ann").round == nil)
        #expect(try Packet(decoding: "200108Ann").version == .round(RoundNumber(wrapping: 0)))
    }

    @Test func theBallotTravelsInTheVersionField() throws {
        let three = RoundNumber(wrapping: 3)
        for (text, version, revealed, onDemand, holds) in [
            ("230108Bob", Packet.Version.round(three), false, false, false),
            ("330108Bob", .revealed(three), true, false, false),
            ("430108Bob", .holding(three), false, false, true),
            ("5301F9Olga", .revealedOnDemand(three), true, true, false),
        ] {
            let packet = try Packet(decoding: text)
            #expect(packet.version == version && packet.round == three, "\(text)")
            #expect(packet.isRevealed == revealed && packet.isRevealedOnDemand == onDemand && packet.holdsTheReveal == holds,
                    "\(text)")
            #expect(packet.localName == text)
        }
    }

    @Test func theAppsThirteenIsOneCharacterAndTheNameStartsAfterIt() throws {
        #expect(try Packet(decoding: "0100DAlice") == Packet(version: .v01, channel: .default, card: .thirteen, name: "Alice"))
        #expect(try Packet(decoding: "0001d전수열") == Packet(version: .v00, channel: Channel(rawValue: 1), card: .thirteen, name: "전수열"))
        #expect(try Packet(decoding: "0100DA").name == "A")
        // Our own packets always pad, so a round packet's DA is an unknown card.
        #expect(try Packet(decoding: "2100DAlice").card == Card(rawValue: 0xDA))
        #expect(try Packet(decoding: "01000DBob").card == .thirteen)
    }

    @Test func hexIsAcceptedInEitherCase() throws {
        let packet = try Packet(decoding: "01ff0dbob")
        #expect(packet.channel == Channel(rawValue: 255))
        #expect(packet.card == .thirteen)
        #expect(try Packet(decoding: "01Ab7fX").card == .half)
    }

    @Test func longNamesFromOtherImplementationsAreKept() throws {
        let name = "Alexandra Konstantinopoulou"
        #expect(try Packet(decoding: "010105" + name).name == name)
    }

    @Test func aCharacterCutAtTheEndIsDroppedAndTheNameMarkedCut() throws {
        // The radio cut 열 (EC 97 B4) after two of its bytes.
        let bytes = Array("010103전수".utf8) + [0xEC, 0x97]
        let packet = try Packet(decoding: bytes)
        #expect(packet.name == "전수")
        #expect(packet.isNameCut)
        #expect(packet.card == .three)
    }

    @Test func namesAreDecodedRawAndSanitisedOnlyForDisplay() throws {
        let packet = try Packet(decoding: "010105\u{1B}]52;c;ZXZpbA==\u{07}Eve")
        #expect(packet.name.unicodeScalars.first == "\u{1B}")
        #expect(TerminalText.sanitize(packet.name) == "Eve")
    }

    @Test(arguments: [
        ("", PacketDecodeError.tooShort([])),
        ("0101F", .tooShort(Array("0101F".utf8))),
        ("040108bob", .unknownVersion(Array("04".utf8))),
        ("2G0108bob", .unknownVersion(Array("2G".utf8))),
        ("600108bob", .unknownVersion(Array("60".utf8))),
        ("5G0108bob", .unknownVersion(Array("5G".utf8))),
        ("1 0108bob", .unknownVersion(Array("1 ".utf8))),
        ("전수열", .unknownVersion([0xEC, 0xA0])),
        ("01GG08bob", .invalidChannel(Array("GG".utf8))),
        ("01-108bob", .invalidChannel(Array("-1".utf8))),
        ("0101XYbob", .invalidCard(Array("XY".utf8))),
        ("01010 bob", .invalidCard(Array("0 ".utf8))),
        ("230108", .missingName),
    ])
    func garbageIsATypedError(_ input: String, _ error: PacketDecodeError) {
        #expect(throws: error) { try Packet(decoding: input) }
        #expect(throws: error) { try Packet(decoding: Array(input.utf8)) }
    }

    @Test func errorsAreOneSentenceWithTheOffendingBytesShownSafely() {
        #expect(PacketDecodeError.tooShort(Array("01".utf8)).description
            == "\"01\" is too short for a packet, which starts with 6 bytes of version, channel and card.")
        #expect(PacketDecodeError.unknownVersion([0x1B, 0x5B]).description
            == "The packet's version \"\\x1B[\" is unknown; versions 00 to 03 and 20 to 5F are understood.")
        #expect(PacketDecodeError.invalidChannel([0xEC, 0x22]).description
            == "The packet's channel \"\\xEC\\x22\" is not two hex digits.")
        #expect(PacketDecodeError.invalidCard(Array("XY".utf8)).description
            == "The packet's card \"XY\" is not two hex digits.")
        #expect(PacketDecodeError.missingName.description == "The packet has no name after its 6-byte header.")
    }
}

import EstimatorKit
import Testing

/// Names an iPhone cut to the 8 bytes its advertisement leaves the app's
/// local name (docs/PROTOCOL.md, The Estimator app): shown up to the last
/// whole character and marked cut, never with U+FFFD.
@Suite struct CutNameTests {
    private func decode(_ bytes: [UInt8]) throws -> Packet { try Packet(decoding: bytes) }
    private let header = Array("0100FE".utf8)

    @Test func anASCIINameAtTheLimitIsWholeCharactersAndNotKnownToBeCut() throws {
        let packet = try decode(Array("0100FEAl".utf8))
        #expect(packet.name == "Al")
        #expect(!packet.isNameCut)
    }

    @Test func hangulCutAfterTwoBytesLeavesNoCharacterAndIsStillAnAppUser() throws {
        // 전 is EC A0 84: the iPhone sends its first two bytes.
        let packet = try decode(header + [0xEC, 0xA0])
        #expect(packet.name == "")
        #expect(packet.isNameCut)
        #expect(!packet.name.unicodeScalars.contains("\u{FFFD}"))
    }

    @Test func hangulCutAfterOneByteLeavesNoCharacter() throws {
        let packet = try decode(header + [0xEC])
        #expect(packet.name == "")
        #expect(packet.isNameCut)
    }

    @Test func aLetterThenHangulCutKeepsTheLetter() throws {
        // "A전" cut to 8 bytes: A, then the first byte of 전.
        let packet = try decode(header + [0x41, 0xEC])
        #expect(packet.name == "A")
        #expect(packet.isNameCut)
    }

    @Test func theDQuirkLeavesThreeBytesForTheName() throws {
        // 13 sent as D: one byte more for the name, a whole Hangul syllable.
        let whole = try decode(Array("0100D".utf8) + [0xEC, 0xA0, 0x84])
        #expect(whole.card == .thirteen && whole.name == "전" && !whole.isNameCut)
        let cut = try decode(Array("0100DAli".utf8))
        #expect(cut == Packet(version: .v01, channel: .default, card: .thirteen, name: "Ali"))
        let broken = try decode(Array("0100DA".utf8) + [0xEC, 0xA0])
        #expect(broken.card == .thirteen && broken.name == "A" && broken.isNameCut)
    }

    @Test func anEmojiCutInsideIsDropped() throws {
        // 👍 is F0 9F 91 8D: "Z" and three of its bytes.
        let packet = try decode(Array("0100FEZ".utf8) + [0xF0, 0x9F, 0x91])
        #expect(packet.name == "Z")
        #expect(packet.isNameCut)
        let none = try decode(header + [0xF0, 0x9F])
        #expect(none.name == "" && none.isNameCut)
    }

    @Test func brokenBytesBeforeTheEndAreStillReplaced() throws {
        // A stray continuation byte is no character begun: U+FFFD, not a cut.
        let packet = try decode(header + [0x41, 0x84])
        #expect(packet.name == "A\u{FFFD}")
        #expect(!packet.isNameCut)
        let middle = try decode(header + [0xEC, 0x41])
        #expect(middle.name == "\u{FFFD}A" && !middle.isNameCut)
    }

    @Test func aSessionsPacketWithNoNameLeftIsNoPacket() {
        #expect(throws: PacketDecodeError.missingName) { try Packet(decoding: Array("2301FC".utf8) + [0xEC, 0xA0]) }
        #expect(throws: PacketDecodeError.missingName) { try Packet(decoding: Array("230108".utf8)) }
    }

    @Test func aCutNameEncodesToBytesThatDecodeCutAgain() throws {
        for bytes in [header + [0x41, 0xEC], header + [0xEC, 0xA0], Array("0100FEAl".utf8)] {
            let packet = try decode(bytes)
            #expect(try decode(packet.bytes) == packet)
        }
    }
}

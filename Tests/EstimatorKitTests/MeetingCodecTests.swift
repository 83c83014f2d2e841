import EstimatorKit
import Testing

/// The meeting's encodings (docs/PROTOCOL.md, Meeting): its parts on the
/// air, put together per peer, and the relay's payload; the test vectors
/// are written out byte by byte, as the protocol gives them.
@Suite struct MeetingCodecTests {
    /// 2026-11-30 00:53:20 UTC: Unix seconds 1 796 000 000, `C9 00` modulo 65536.
    static let deadline = Timestamp(secondsSince1970: 1_796_000_000)
    static let now = deadline - .seconds(120)

    static let passkeys = RoundMeeting().choosing(Story(line: "ABC-123 Login with passkeys"), from: .backlog)
    static let timed = RoundMeeting().choosing(Story(line: "ENG-7"), from: .typed).timing(deadline)

    static func assembled(_ parts: [[UInt8]], now: Timestamp = Self.now) -> MeetingAssembler.Heard? {
        var assembler = MeetingAssembler()
        var heard: MeetingAssembler.Heard?
        for part in parts { heard = assembler.take(part, now: now) }
        return heard
    }

    @Test func aMeetingWithNoStoryIsPartZeroAlone() {
        let parts = MeetingParts.encode(RoundMeeting(), round: RoundNumber(wrapping: 3))
        #expect(parts == [[0x03, 0x00, 0x00, 0x00, 0x00, 0xC5]])
        let heard = Self.assembled(parts)
        #expect(heard?.round == RoundNumber(wrapping: 3) && heard?.meeting == RoundMeeting())
    }

    @Test func aStoryGoesInPartsOfFiveBytesBeforeItsState() {
        let parts = MeetingParts.encode(Self.passkeys, round: RoundNumber(wrapping: 4))
        #expect(parts == [
            [0x14, 0x80, 0x08, 0x08, 0x00, 0x7B],  // ABC-123 packed
            [0x24, 0x4C, 0x6F, 0x67, 0x69, 0x6E],  // "Login"
            [0x34, 0x20, 0x77, 0x69, 0x74, 0x68],  // " with"
            [0x44, 0x20, 0x70, 0x61, 0x73, 0x73],  // " pass"
            [0x54, 0x6B, 0x65, 0x79, 0x73],        // "keys"
            [0x04, 0x04, 0x00, 0x00, 0x18, 0x4B],  // backlog, 24 bytes, checksum 4B
        ])
        // Heard in any order, from any part on.
        for start in parts.indices {
            let heard = Self.assembled(Array(parts[start...] + parts[..<start]))
            #expect(heard?.meeting == Self.passkeys && heard?.round == RoundNumber(wrapping: 4))
        }
        let keyAlone = RoundMeeting(story: Story(key: "ABC-123", summary: ""), source: .backlog, change: 0, deadline: nil, agreed: nil)
        #expect(Self.assembled(Array(parts.dropLast()))?.meeting == keyAlone, "no state: the key alone, at once")
        #expect(Self.assembled(Array(parts.prefix(1)))?.meeting == keyAlone, "the first part holds the key")
        #expect(Self.assembled(Array(parts.dropFirst())) == nil, "a part missing")
        #expect(keyAlone.merging(Self.passkeys) == Self.passkeys && Self.passkeys.merging(keyAlone) == Self.passkeys,
                "the whole meeting beats its key")
    }

    /// A key that does not pack goes as text, first: it is known once the
    /// parts hold it and the space after it.
    @Test func aKeyThatDoesNotPackIsKnownFromItsText() {
        let story = RoundMeeting().choosing(Story(line: "MOBILE-12 Sign in"), from: .typed)
        let parts = MeetingParts.encode(story, round: RoundNumber(wrapping: 2))
        #expect(parts == [
            [0x12, 0x4D, 0x4F, 0x42, 0x49, 0x4C],  // "MOBIL"
            [0x22, 0x45, 0x2D, 0x31, 0x32, 0x20],  // "E-12 "
            [0x32, 0x53, 0x69, 0x67, 0x6E, 0x20],  // "Sign "
            [0x42, 0x69, 0x6E],                    // "in"
            [0x02, 0x08, 0x00, 0x00, 0x11, 0x4B],  // typed, 17 bytes, checksum 4B
        ])
        #expect(Self.assembled(Array(parts.prefix(1))) == nil, "half a key is none")
        #expect(Self.assembled(Array(parts.prefix(2)))?.meeting.story == Story(key: "MOBILE-12", summary: ""),
                "the key and the space after it are enough")
        #expect(Self.assembled(parts)?.meeting == story)
    }

    @Test func theDeadlineAndTheAgreedEstimateTravelInPartZero() {
        let round = RoundNumber(wrapping: 10)
        let parts = MeetingParts.encode(Self.timed, round: round)
        #expect(parts == [[0x1A, 0x80, 0x36, 0x50, 0x00, 0x07], [0x0A, 0x19, 0xC9, 0x00, 0x05, 0xE4]])
        #expect(Self.assembled(parts)?.meeting == Self.timed)
        // Taken nearest the receiver's clock, up to 9 hours either way.
        for offset in [Duration.seconds(-32_000), .seconds(32_000)] {
            #expect(Self.assembled(parts, now: Self.deadline + offset)?.meeting.deadline == Self.deadline)
        }
        #expect(Self.assembled(parts, now: Self.deadline + .seconds(40_000))?.meeting.deadline
            == Self.deadline + .seconds(65_536))

        let settled = Self.timed.settling(.five)
        #expect(MeetingParts.encode(settled, round: round).last == [0x0A, 0x2A, 0x05, 0x00, 0x05, 0xE4])
        #expect(Self.assembled(MeetingParts.encode(settled, round: round))?.meeting == settled)
    }

    /// A story longer than 75 bytes is cut at a character's end.
    @Test func theAirCarriesSeventyFiveBytesOfTheStoryCutAtACharacter() {
        let long = Story(line: "PLAT-1042 Export the quarterly report for every region, with totals per team and month")
        let parts = MeetingParts.encode(RoundMeeting().choosing(long, from: .typed), round: RoundNumber(wrapping: 1))
        #expect(parts.count == 16)
        #expect(parts.last?[4] == 75, "the packed key and 70 bytes of the summary")
        #expect(Self.assembled(parts)?.meeting.story == Story(key: "PLAT-1042", summary: String(long.summary.utf8.prefix(70))!))

        let wide = Story(line: "ENG-80 " + String(repeating: "전", count: 30))
        let cut = MeetingParts.encode(RoundMeeting().choosing(wide, from: .typed), round: RoundNumber(wrapping: 1))
        #expect(cut.last?[4] == 74, "the packed key, 23 whole characters of 3")
        #expect(Self.assembled(cut)?.meeting.story == Story(line: "ENG-80 " + String(repeating: "전", count: 23)))
    }

    /// A new round forgets the parts of the last; a new story in the same
    /// round is taken once its checksum matches.
    @Test func partsAreKeptPerRound() {
        var assembler = MeetingAssembler()
        let old = MeetingParts.encode(Self.passkeys, round: RoundNumber(wrapping: 4))
        for part in old { _ = assembler.take(part, now: Self.now) }
        let next = MeetingParts.encode(Self.timed, round: RoundNumber(wrapping: 5))
        #expect(assembler.take(next[1], now: Self.now) == nil, "round 5's state, its story not heard yet")
        #expect(assembler.take(next[0], now: Self.now)?.meeting == Self.timed)

        // Round 5 again, another story: until its state comes, its parts do
        // not match the state kept, and the last whole meeting stays.
        let other = RoundMeeting().choosing(Story(line: "ENG-9 Later"), from: .typed)
        let parts = MeetingParts.encode(other, round: RoundNumber(wrapping: 5))
        #expect(parts.count == 3)
        for part in parts.dropLast() { #expect(assembler.take(part, now: Self.now)?.meeting == Self.timed) }
        #expect(assembler.take(parts[2], now: Self.now)?.meeting == other)
    }

    @Test func hostilePartsAreIgnored() {
        let round4 = MeetingParts.encode(Self.passkeys, round: RoundNumber(wrapping: 4))
        var assembler = MeetingAssembler()
        for part in round4 { _ = assembler.take(part, now: Self.now) }
        let junk: [[UInt8]] = [
            [],
            [0x14],                                      // a story part with no text
            [0x14, 0x41, 0x42, 0x43, 0x2D, 0x31, 0x32],  // seven bytes
            [0x04, 0x04, 0x00, 0x00, 0x1B],              // a short state
            [0x64, 0x41],                                // part 6, beyond 24 bytes
            [0x14, 0xBF, 0xFF, 0xFF, 0xFF, 0xFF],        // a packed key beyond the last
        ]
        for part in junk { #expect(assembler.take(part, now: Self.now)?.meeting == Self.passkeys, "\(part)") }

        func rejects(_ state: [UInt8], _ text: [UInt8] = []) -> Bool {
            var parts: [[UInt8]] = stride(from: 0, to: text.count, by: 5).enumerated().map { index, start in
                [UInt8(index + 1) << 4 | 0x04] + text[start..<min(start + 5, text.count)]
            }
            parts.append([0x04] + state)
            return Self.assembled(parts) == nil
        }
        #expect(!rejects([0x04, 0x00, 0x00, 0x05, 0x0C], Array("ENG-7".utf8)))
        #expect(rejects([0x04, 0x00, 0x00, 0x05, 0x0D], Array("ENG-7".utf8)), "checksum")
        #expect(rejects([0x0C, 0x00, 0x00, 0x05, 0x0C], Array("ENG-7".utf8)), "source 3")
        #expect(rejects([0x07, 0x05, 0x00, 0x05, 0x0C], Array("ENG-7".utf8)), "agreed and deadline")
        #expect(rejects([0x06, 0x05, 0x01, 0x05, 0x0C], Array("ENG-7".utf8)), "agreed with a second byte")
        #expect(rejects([0x04, 0x01, 0x00, 0x05, 0x0C], Array("ENG-7".utf8)), "bytes with neither")
        #expect(rejects([0x00, 0x00, 0x00, 0x05, 0x0C], Array("ENG-7".utf8)), "text with no source")
        #expect(rejects([0x04, 0x00, 0x00, 0x00, 0xC5]), "a source with no text")
        #expect(rejects([0x04, 0x00, 0x00, 0x50, 0xC5]), "80 bytes")
        #expect(rejects([0x04, 0x00, 0x00, 0x02, 0xB3], [0xC3, 0x28]), "not UTF-8")
        #expect(rejects([0x04, 0x00, 0x00, 0x02, 0x29], [0x1B, 0x07]), "nothing left once sanitised")
        let beyond: [UInt8] = [0xBF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(rejects([0x04, 0x00, 0x00, 0x05, checksum(beyond)], beyond), "a packed key beyond the last")
        let cutShort: [UInt8] = [0x80, 0x36, 0x50]
        #expect(rejects([0x04, 0x00, 0x00, 0x03, checksum(cutShort)], cutShort), "a packed key of 3 bytes")
    }

    /// Terminal controls in a story heard are gone before anything shows it.
    @Test func aHostileStoryIsSanitised() {
        let text = Array("ENG-7 \u{1B}[2Jhi\u{202E}".utf8)
        var parts: [[UInt8]] = stride(from: 0, to: text.count, by: 5).enumerated().map { index, start in
            [UInt8(index + 1) << 4 | 0x02] + text[start..<min(start + 5, text.count)]
        }
        parts.append([0x02, 0x08, 0x00, 0x00, UInt8(text.count), checksum(text)])
        let story = Self.assembled(parts)?.meeting.story
        #expect(story?.key == "ENG-7")
        #expect(story?.summary.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && $0 != "\u{202E}" } == true)
    }

    @Test func theRelayCarriesTheLocalNameThenTheWholeMeeting() {
        let name = Array("2A01FCAnn".utf8)
        let whole = RelayPayload.encodeMeeting(Self.timed, round: RoundNumber(wrapping: 10))
        #expect(whole == [0x0A, 0x19, 0xC9, 0x00, 0x0C, 0x45, 0x4E, 0x47, 0x2D, 0x37])
        let payload = RelayPayload(localName: name, meeting: whole).bytes
        #expect(payload == name + [0x00] + whole)
        #expect(RelayPayload(splitting: payload) == RelayPayload(localName: name, meeting: whole))
        let heard = RelayPayload.decodeMeeting(whole, now: Self.now)
        #expect(heard?.round == RoundNumber(wrapping: 10) && heard?.meeting == Self.timed)

        // Without 0x00, a local name alone; a hostile payload splits at its first.
        #expect(RelayPayload(splitting: name) == RelayPayload(localName: name, meeting: []))
        #expect(RelayPayload(localName: name, meeting: []).bytes == name)
        #expect(RelayPayload(splitting: [0x41, 0x00, 0x00, 0x42]) == RelayPayload(localName: [0x41], meeting: [0x00, 0x42]))

        // The whole title, not cut to 75 bytes.
        let long = RoundMeeting().choosing(Story(line: "PLAT-1042 " + String(repeating: "report ", count: 30)), from: .typed)
        #expect(RelayPayload.decodeMeeting(RelayPayload.encodeMeeting(long, round: RoundNumber(wrapping: 1)), now: Self.now)?
            .meeting == long)
        #expect(RelayPayload.decodeMeeting([0x0A, 0x19, 0xC9, 0x00, 0x0D] + Array("ENG-7".utf8), now: Self.now) == nil)
        #expect(RelayPayload.decodeMeeting([0x1A, 0x00, 0x00, 0x00, 0xC5], now: Self.now) == nil, "a part number")
        #expect(RelayPayload.decodeMeeting([0x0A, 0x00, 0x00, 0x00], now: Self.now) == nil)
    }

    private func checksum(_ text: [UInt8]) -> UInt8 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return UInt8(truncatingIfNeeded: hash ^ hash >> 8 ^ hash >> 16 ^ hash >> 24)
    }
}

// libFuzzer target `meeting` (mk/fuzz.mk): the meeting's decoders
// (docs/PROTOCOL.md, Meeting) on bytes anyone nearby or on the broker
// sends. The whole input is a relay payload, split and its meeting
// decoded; then it is a run of air parts, each a length byte (mod 8) and
// its bytes, put together by one peer's assembler.

import EstimatorKit

/// 2026-11-30 00:53:20 UTC, a receiver's clock.
private let now = Timestamp(secondsSince1970: 1_796_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(data, count)

    let payload = RelayPayload(splitting: bytes)
    check(!payload.localName.contains(0), "a local name keeps a 0x00: \(bytes)")
    if !payload.meeting.isEmpty { check(payload.bytes == bytes, "splitting and joining changes \(bytes)") }
    if let heard = RelayPayload.decodeMeeting(payload.meeting, now: now) {
        checkMeeting(heard, "the relay's \(payload.meeting)")
        let again = RelayPayload.decodeMeeting(RelayPayload.encodeMeeting(heard.meeting, round: heard.round), now: now)
        check(again?.round == heard.round && again?.meeting == heard.meeting, "re-encoding changes the relay's \(payload.meeting)")
    }

    var assembler = MeetingAssembler()
    var last: MeetingAssembler.Heard?
    var rest = bytes[...]
    while let length = rest.first.map({ Int($0 % 8) }) {
        let part = Array(rest.dropFirst().prefix(length))
        rest = rest.dropFirst(1 + length)
        // Each meeting once: the assembler repeats the last until the parts make another.
        guard let heard = assembler.take(part, now: now), heard.round != last?.round || heard.meeting != last?.meeting
        else { continue }
        last = heard
        checkMeeting(heard, "the parts of \(bytes)")
        var again = MeetingAssembler()
        var reheard: MeetingAssembler.Heard?
        for part in MeetingParts.encode(heard.meeting, round: heard.round) {
            check(part.count <= MeetingParts.maximumLength, "a part of \(part.count) bytes from \(bytes)")
            reheard = again.take(part, now: now)
        }
        check(reheard?.round == heard.round && reheard?.meeting == heard.meeting, "re-encoding changes the parts of \(bytes)")
    }
    return 0
}

/// A meeting heard holds nothing a terminal acts on, and a story only with a source.
private func checkMeeting(_ heard: MeetingAssembler.Heard, _ what: @autoclosure () -> String) {
    let story = heard.meeting.story
    check(!actsOnTerminal(story?.title ?? ""), "a story keeps a control: \(what())")
    check((story == nil) == (heard.meeting.source == .none), "a story without its source: \(what())")
}


import DBus
import Testing

/// `ReadPacing`'s rules, with the time passed in (milliseconds).
@Suite struct ReadPacingTests {
    @Test func withoutAnIntervalNothingIsHeld() {
        var pacing = ReadPacing()
        #expect(!pacing.isOn)
        pacing.read(at: 1_000)
        pacing.read(at: 1_001)
        #expect(pacing.heldUntil(1_001) == nil)
    }

    @Test func aQuietSocketIsReadAtOnce() {
        var pacing = ReadPacing(interval: 50)
        pacing.read(at: 1_000)
        #expect(pacing.heldUntil(1_000) == nil, "one read says nothing of the rate")
        pacing.read(at: 1_050)
        #expect(pacing.heldUntil(1_051) == nil, "50 ms apart is not faster than the interval")
        pacing.read(at: 1_300)
        #expect(pacing.heldUntil(1_300) == nil)
    }

    @Test func twoReadsWithinTheIntervalHoldTheNextUntilItHasPassed() {
        var pacing = ReadPacing(interval: 50)
        pacing.read(at: 1_000)
        pacing.read(at: 1_010)
        #expect(pacing.heldUntil(1_010) == 1_060)
        #expect(pacing.heldUntil(1_059) == 1_060)
        #expect(pacing.heldUntil(1_060) == nil, "held no longer than the interval after the last read")
    }

    @Test func theReadAfterAHoldHoldsNothing() {
        var pacing = ReadPacing(interval: 50)
        pacing.read(at: 1_000)
        pacing.read(at: 1_010)
        pacing.read(at: 1_061)
        #expect(pacing.heldUntil(1_061) == nil, "a quiet socket after a burst wakes nobody for a hold")
        pacing.read(at: 1_070)
        #expect(pacing.heldUntil(1_070) == 1_120, "the burst goes on: held again")
    }

    @Test func aStreamIsReadAboutOncePerInterval() {
        // A message every 5 ms for a second, read whenever the socket is readable and not held.
        var pacing = ReadPacing(interval: 50)
        var reads = 0
        var waiting = false
        for now in stride(from: UInt64(10_000), to: 11_000, by: 1) {
            if now % 5 == 0 { waiting = true }
            guard waiting, pacing.heldUntil(now) == nil else { continue }
            pacing.read(at: now)
            reads += 1
            waiting = false
        }
        #expect(reads <= 2 * 1_000 / 50 + 1, "\(reads) reads of 200 messages")
        #expect(reads >= 1_000 / 50, "held no longer than the interval: \(reads) reads")
    }
}

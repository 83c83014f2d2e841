import Retry
import Testing

@Suite struct BackoffTests {
    /// SplitMix64: a seeded generator, so the test sees many jitters.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func doublesUpToTheCapWithJitterBetweenHalfAndOneAndAHalf() {
        var random = Seeded(state: 42)
        for _ in 0..<50 {
            var backoff = Backoff(first: .milliseconds(500), cap: .seconds(4))
            let nominal: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4)]
            for base in nominal {
                let delay = backoff.next(using: &random)
                #expect(delay >= base / 2 && delay <= base * 3 / 2, "\(delay) around \(base)")
            }
            backoff.reset()
            #expect(backoff.next(using: &random) <= .milliseconds(750), "a success starts again from the first delay")
        }
    }

    @Test func jitterSpreadsTheRetries() {
        var random = Seeded(state: 7)
        let delays = Set((0..<20).map { _ in
            var backoff = Backoff(first: .seconds(1), cap: .seconds(1))
            return backoff.next(using: &random)
        })
        #expect(delays.count > 15, "sessions a broker restart dropped do not come back together")
    }
}

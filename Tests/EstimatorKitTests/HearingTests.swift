import Testing
@testable import EstimatorKit

private let t0 = Timestamp(secondsSince1970: 1_790_000_000)

@Suite struct HearingTests {
    let window = Duration.seconds(6)

    @Test func aWayCountsWhileUsedWithinTheWindow() {
        var paths = HeardPaths()
        paths.heard(relayed: true, at: t0)
        #expect(paths.hearing(now: t0 + .seconds(1), window: window) == .relay)
        paths.heard(relayed: false, at: t0 + .seconds(2))
        #expect(paths.hearing(now: t0 + .seconds(3), window: window) == .both)
        // The relay went quiet (the broker lost the person), the air goes on.
        paths.heard(relayed: false, at: t0 + .seconds(7))
        #expect(paths.hearing(now: t0 + .seconds(7), window: window) == .air)
        paths.heard(relayed: true, at: t0 + .seconds(8))
        #expect(paths.hearing(now: t0 + .seconds(8), window: window) == .both)
    }

    @Test func aStalePeerWasHeardTheLaterWay() {
        #expect(HeardPaths().hearing(now: t0, window: window) == .air)
        #expect(HeardPaths(relay: t0).hearing(now: t0 + .seconds(60), window: window) == .relay)
        #expect(HeardPaths(air: t0, relay: t0 + .seconds(1)).hearing(now: t0 + .seconds(60), window: window) == .relay)
        #expect(HeardPaths(air: t0 + .seconds(1), relay: t0).hearing(now: t0 + .seconds(60), window: window) == .air)
    }
}

import EstimatorKit
import Testing

private let t0 = Timestamp(secondsSince1970: 1_790_000_000)

@Suite struct HearingTests {
    let window = Duration.seconds(6)

    @Test func aWayCountsWhileUsedWithinTheWindow() {
        var paths = HeardPaths()
        paths.heard(relayed: true, at: t0, window: window)
        #expect(paths.hearing(now: t0 + .seconds(1), window: window) == .relay)
        paths.heard(relayed: false, at: t0 + .seconds(2), window: window)
        #expect(paths.hearing(now: t0 + .seconds(3), window: window) == .both)
        // The relay went quiet (the broker lost the person), the air goes on.
        paths.heard(relayed: false, at: t0 + .seconds(7), window: window)
        #expect(paths.hearing(now: t0 + .seconds(7), window: window) == .air)
        paths.heard(relayed: true, at: t0 + .seconds(8), window: window)
        #expect(paths.hearing(now: t0 + .seconds(8), window: window) == .both)
    }

    @Test func aStalePeerWasHeardTheLaterWay() {
        #expect(HeardPaths().hearing(now: t0, window: window) == .air)
        #expect(HeardPaths(relay: t0).hearing(now: t0 + .seconds(60), window: window) == .relay)
        #expect(HeardPaths(air: t0, relay: t0 + .seconds(1)).hearing(now: t0 + .seconds(60), window: window) == .relay)
        #expect(HeardPaths(air: t0 + .seconds(1), relay: t0).hearing(now: t0 + .seconds(60), window: window) == .air)
    }

    @Test func theStrongestReceptionOfTheWindowCounts() {
        var signal = AirSignal(rssi: -85, at: t0)
        signal.heard(rssi: -70, at: t0 + .seconds(1), window: window)
        signal.heard(rssi: -88, at: t0 + .seconds(2), window: window)
        #expect(signal.strongest == -70 && !signal.isFaint)
        // The -70 moves to the half before (from 3 s), then out (from 6 s after its half began).
        signal.heard(rssi: -88, at: t0 + .milliseconds(3500), window: window)
        #expect(signal.strongest == -70)
        signal.heard(rssi: -86, at: t0 + .seconds(7), window: window)
        #expect(signal.strongest == -86 && signal.isFaint)
        signal.heard(rssi: -80, at: t0 + .seconds(8), window: window)
        #expect(signal.strongest == -80 && signal.isFaint, "-80 dBm itself is faint")
    }

    @Test func aLongSilenceForgetsTheHalfBefore() {
        var signal = AirSignal(rssi: -60, at: t0)
        signal.heard(rssi: -90, at: t0 + .seconds(20), window: window)
        #expect(signal.strongest == -90)
    }

    @Test func aClockGoneBackBeginsANewHalf() {
        var signal = AirSignal(rssi: -60, at: t0)
        signal.heard(rssi: -90, at: t0 - .seconds(3600), window: window)
        #expect(signal.strongest == -90, "nothing is known of the time between")
    }

    @Test func clearlyMeansNotByTheRelayAloneAndNotFaintly() {
        var paths = HeardPaths()
        paths.heard(relayed: true, at: t0, window: window)
        #expect(!paths.isHeardClearly(now: t0, window: window), "through the relay alone")
        paths.heard(relayed: false, at: t0, window: window)
        #expect(paths.isHeardClearly(now: t0, window: window), "no strength given: clear")
        paths.heard(relayed: true, at: t0 + .milliseconds(500), window: window)
        #expect(!paths.isHeardClearly(now: t0 + .seconds(7), window: window), "both stale, last heard through the relay")
        paths.heard(relayed: false, rssi: -91, at: t0 + .seconds(1), window: window)
        #expect(!paths.isHeardClearly(now: t0 + .seconds(1), window: window), "faint")
        paths.heard(relayed: false, rssi: -50, at: t0 + .seconds(2), window: window)
        #expect(paths.isHeardClearly(now: t0 + .seconds(2), window: window))
    }
}

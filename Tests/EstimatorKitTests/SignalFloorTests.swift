import EstimatorKit
import Testing

private let t0 = Timestamp(secondsSince1970: 1_790_000_000)
private let ann = PeerID(channel: Channel(rawValue: 1), name: "Ann")

/// `floor.hear`, outside `#expect`, which cannot call a mutating method.
private func hear(_ floor: inout SignalFloor, _ id: PeerID, rssi: Int?, relayed: Bool, at time: Timestamp) -> Bool {
    floor.hear(id, rssi: rssi, relayed: relayed, at: time)
}

/// The signal floor's hysteresis, reception by reception on plain
/// timestamps: found after a second and three readings above, lost after
/// 20 s below.
@Suite struct SignalFloorTests {
    /// Feeds `ann` a reception at `rssi` every `step` from `start` for
    /// `count` receptions; returns whether she is in after each.
    @discardableResult
    private func feed(_ floor: inout SignalFloor, rssi: (Int) -> Int, from start: Timestamp, every step: Duration = .milliseconds(500),
                      count: Int) -> [Bool] {
        (0..<count).map { index in floor.hear(ann, rssi: rssi(index), relayed: false, at: start + step * index) }
    }

    @Test func oneReadingFindsNobodyUnlessClearlyAbove() {
        var floor = SignalFloor()
        #expect(!hear(&floor, ann, rssi: -74, relayed: false, at: t0), "14 dB above the found level: one reading")
        #expect(!floor.isIn(ann))
        let bob = PeerID(channel: Channel(rawValue: 1), name: "Bob")
        #expect(hear(&floor, bob, rssi: -73, relayed: false, at: t0), "15 dB above: nobody beyond the floor is heard so")
    }

    @Test func foundAfterASecondAbove() {
        var floor = SignalFloor()
        #expect(!hear(&floor, ann, rssi: -80, relayed: false, at: t0))
        #expect(!hear(&floor, ann, rssi: -80, relayed: false, at: t0 + .milliseconds(999)), "short of a second")
        #expect(hear(&floor, ann, rssi: -80, relayed: false, at: t0 + .seconds(1)))
    }

    @Test func twoLuckyReadingsOfANeighbourFindNobody() {
        var floor = SignalFloor()
        // Through a wall, a mean of -95 with readings swinging by 5 dB: two in
        // a row at -86, a second apart, then one as usual.
        #expect(!hear(&floor, ann, rssi: -86, relayed: false, at: t0))
        #expect(!hear(&floor, ann, rssi: -86, relayed: false, at: t0 + .seconds(1)), "a second, but two readings")
        #expect(!hear(&floor, ann, rssi: -97, relayed: false, at: t0 + .seconds(2)), "three, but their mean is -89.7")
    }

    @Test func oneLuckyReadingAmongFaintOnesFindsNobody() {
        var floor = SignalFloor()
        // Faint from the next room, one reading through the open door.
        let readings = feed(&floor, rssi: { $0 == 6 ? -75 : -97 }, from: t0, count: 20)
        #expect(!readings.contains(true))
    }

    /// What finding a room counts on: the mean now, not the verdict.
    @Test func aNeighbourFoundByALuckyRunIsInButNotAtTheFoundLevelOnceHisMeanFallsBack() {
        var floor = SignalFloor()
        feed(&floor, rssi: { _ in -86 }, from: t0, count: 3)
        #expect(floor.isIn(ann), "three lucky readings over a second")
        #expect(floor.isAtFoundLevel(ann, at: t0 + .seconds(1)))
        let more = feed(&floor, rssi: { _ in -96 }, from: t0 + .milliseconds(1500), count: 3)
        #expect(more == [true, true, true], "in for the lose time")
        #expect(!floor.isAtFoundLevel(ann, at: t0 + .milliseconds(2500)), "the mean of six is -91")
        #expect(floor.isAtFoundLevel(ann, at: t0 + .seconds(20)), "no reading in the window: nothing to judge by")
        let bob = PeerID(channel: Channel(rawValue: 1), name: "Bob")
        _ = hear(&floor, bob, rssi: nil, relayed: false, at: t0)
        #expect(floor.isAtFoundLevel(bob, at: t0), "a radio that gives no strength")
    }

    @Test func aFarTeammateSwingingTenDecibelsNeverLeaves() {
        var floor = SignalFloor()
        // At the far end of a big room: ±10 dB around -84, a reading a second.
        let swing = [-74, -94, -84, -79, -89, -94, -74, -84, -89, -79]
        let finding = feed(&floor, rssi: { swing[$0 % swing.count] }, from: t0, every: .seconds(1), count: 3)
        #expect(finding == [false, false, true], "found at the third reading, two seconds after the first")
        // Then ten minutes of it, with a body in the way now and then (-100,
        // below the lost level on its own).
        let held = feed(&floor, rssi: { $0 % 7 == 3 ? -100 : swing[$0 % swing.count] }, from: t0 + .seconds(3),
                        every: .seconds(1), count: 600)
        #expect(!held.contains(false))
    }

    @Test func lostOnlyAfterTwentySecondsBelow() {
        var floor = SignalFloor()
        feed(&floor, rssi: { _ in -60 }, from: t0, count: 3)
        #expect(floor.isIn(ann))
        // She walks out: from t0 + 10 s every reading is -100, and the
        // mean over 8 s falls below -95 at once (the window holds only these).
        let start = t0 + .seconds(10)
        #expect(hear(&floor, ann, rssi: -100, relayed: false, at: start))
        #expect(hear(&floor, ann, rssi: -100, relayed: false, at: start + .milliseconds(19_999)))
        #expect(!hear(&floor, ann, rssi: -100, relayed: false, at: start + .seconds(20)))
        #expect(!floor.isIn(ann))
    }

    @Test func aReadingBackAboveTheLostLevelStartsTheTwentySecondsAgain() {
        var floor = SignalFloor()
        feed(&floor, rssi: { _ in -60 }, from: t0, count: 3)
        let start = t0 + .seconds(10)
        floor.hear(ann, rssi: -100, relayed: false, at: start)
        floor.hear(ann, rssi: -100, relayed: false, at: start + .seconds(15))
        // Back at -80: the mean of (-100, -80) is -90, above -95.
        floor.hear(ann, rssi: -80, relayed: false, at: start + .seconds(16))
        #expect(hear(&floor, ann, rssi: -100, relayed: false, at: start + .seconds(30)), "below again from 30 s only")
        #expect(hear(&floor, ann, rssi: -100, relayed: false, at: start + .seconds(49)))
        #expect(!hear(&floor, ann, rssi: -100, relayed: false, at: start + .seconds(50)))
    }

    @Test func theRelayAndARadioWithoutStrengthFindAtOnce() {
        var floor = SignalFloor()
        #expect(hear(&floor, ann, rssi: nil, relayed: false, at: t0), "btvirt gives no strength")
        let bob = PeerID(channel: Channel(rawValue: 1), name: "Bob")
        #expect(hear(&floor, bob, rssi: nil, relayed: true, at: t0))
        // Bob is heard faintly over the air too, and through the relay: the
        // relay keeps him in.
        for second in 1...60 {
            floor.hear(bob, rssi: -100, relayed: false, at: t0 + .seconds(second))
            floor.hear(bob, rssi: nil, relayed: true, at: t0 + .seconds(second) + .milliseconds(500))
        }
        #expect(floor.isIn(bob))
    }

    @Test(arguments: SignalRange.allCases)
    func eachRangeFindsAtItsLevelAndLosesBelowItsOther(range: SignalRange) {
        var floor = SignalFloor(range: range)
        feed(&floor, rssi: { _ in range.found - 1 }, from: t0, count: 10)
        #expect(!floor.isIn(ann), "just below the found level")
        feed(&floor, rssi: { _ in range.found }, from: t0 + .seconds(20), count: 3)
        #expect(floor.isIn(ann), "at the found level")
        feed(&floor, rssi: { _ in range.lost }, from: t0 + .seconds(30), every: .seconds(1), count: 60)
        #expect(floor.isIn(ann), "at the lost level: kept")
        let losing = feed(&floor, rssi: { _ in range.lost - 1 }, from: t0 + .seconds(100), every: .seconds(1), count: 21)
        #expect(losing.firstIndex(of: false) == 20, "below it for 20 s: lost")
    }

    @Test func theLevelsOfTheRanges() {
        #expect(SignalRange.allCases.map(\.found) == [-70, -88, -98])
        #expect(SignalRange.allCases.map(\.lost) == [-78, -95, -104])
        #expect(SignalRange.allCases.allSatisfy { $0.lost < $0.found })
    }

    @Test func countsThoseOutOfTheRoomHeardLately() {
        var floor = SignalFloor()
        let one = Channel(rawValue: 1)
        for name in ["Cy", "Di"] {
            floor.hear(PeerID(channel: one, name: name), rssi: -99, relayed: false, at: t0)
        }
        floor.hear(PeerID(channel: Channel(rawValue: 2), name: "Ed"), rssi: -99, relayed: false, at: t0)
        feed(&floor, rssi: { _ in -60 }, from: t0, count: 3)
        #expect(floor.outCount(in: one, heardSince: t0) == 2, "Ann is in; Ed is another channel's")
        #expect(floor.outCount(in: one, heardSince: t0 + .seconds(1)) == 0, "not heard lately")
    }

    @Test func memoryIsBoundedWhateverAFloodOfNamesBrings() {
        var floor = SignalFloor()
        let one = Channel(rawValue: 1)
        feed(&floor, rssi: { _ in -60 }, from: t0, count: 3)
        for index in 0..<5000 {
            floor.hear(PeerID(channel: one, name: "n\(index)"), rssi: -99, relayed: false,
                       at: t0 + .seconds(2) + .milliseconds(index))
        }
        #expect(floor.outCount(in: one, heardSince: t0) == SignalFloor.capacity, "the oldest forgotten first")
        #expect(!floor.isIn(ann), "Ann, heard longest ago, was forgotten")
        floor.forget(notHeardSince: t0 + .seconds(10))
        #expect(floor.outCount(in: one, heardSince: t0) == 0)
    }
}

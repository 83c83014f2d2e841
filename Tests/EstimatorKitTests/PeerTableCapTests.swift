import EstimatorKit
import Testing

@Suite struct PeerTableCapTests {
    let one = Channel(rawValue: 1)

    @Test func aFloodOf500NamesStoresTheCapAndCountsTheRest() {
        var table = PeerTable()
        var joined = 0
        for i in 0..<500 {
            joined += table.observe(sighting("spam\(i)", .five, at: Double(i) / 100)).count
        }
        #expect(joined == 64)
        #expect(table.peers(in: one).count == 64)
        #expect(table.unshownCount(in: one) == 436)
    }

    @Test func theSameOverflowNameHeardTwiceCountsOnce() {
        var table = PeerTable(peersPerChannel: 1)
        _ = table.observe(sighting("Alice", .five, at: 0))
        _ = table.observe(sighting("Bob", .five, at: 0.1))
        _ = table.observe(sighting("Bob", .eight, at: 0.2))
        #expect(table.unshownCount(in: one) == 1)
    }

    @Test func theCapIsPerChannel() {
        var table = PeerTable(peersPerChannel: 2)
        for channel: UInt8 in [1, 2] {
            for name in ["a", "b", "c"] {
                _ = table.observe(sighting(name, .five, at: 0, channel: channel))
            }
        }
        #expect(table.peers.count == 4)
        #expect(table.unshownCount(in: Channel(rawValue: 1)) == 1)
        #expect(table.unshownCount(in: Channel(rawValue: 2)) == 1)
    }

    @Test func whenARowFreesUpTheNextSightingTakesIt() {
        var table = PeerTable(peersPerChannel: 1)
        _ = table.observe(sighting("Alice", .five, at: 0))
        _ = table.observe(sighting("Bob", .eight, at: 0))
        _ = table.observe(sighting("Alice", .none, at: 1))
        #expect(table.observe(sighting("Bob", .eight, at: 2)).summary == ["joined Bob"])
        #expect(table.unshownCount(in: one) == 0)
    }

    /// The living come first: a crowd that went quiet never keeps out
    /// someone who is here. Live peers keep their places.
    @Test func aNewcomerToAFullChannelTakesThePlaceOfThePeerQuietLongest() {
        var table = PeerTable(peersPerChannel: 2)
        _ = table.observe(sighting("Alice", .five, at: 0))
        _ = table.observe(sighting("Bob", .five, at: 1))
        #expect(table.observe(sighting("Ivan", .eight, at: 2)).isEmpty, "both live: Ivan is counted, not shown")
        #expect(table.unshownCount(in: one) == 1)
        #expect(table.tick(now: t(8)).summary == ["stale Alice", "stale Bob"])
        #expect(table.observe(sighting("Ivan", .eight, at: 8)).summary == ["left Alice", "joined Ivan"])
        #expect(table.unshownCount(in: one) == 0)
        #expect(table.peers(in: one).map(\.name) == ["Bob", "Ivan"])
        #expect(table.observe(sighting("Bob", .five, at: 9)).summary == ["back Bob"])
        #expect(table.observe(sighting("Eve", .five, at: 9)).isEmpty, "no one quiet left: Eve waits")
    }

    @Test func overflowNamesAreForgottenAfterTheDropTime() {
        var table = PeerTable(peersPerChannel: 1)
        _ = table.observe(sighting("Alice", .five, at: 0))
        _ = table.observe(sighting("Bob", .five, at: 0))
        _ = table.observe(sighting("Alice", .five, at: 20))
        _ = table.tick(now: t(29))
        #expect(table.unshownCount(in: one) == 1)
        _ = table.tick(now: t(30))
        #expect(table.unshownCount(in: one) == 0)
        #expect(table.peers.map(\.name) == ["Alice"])
    }

    @Test func anOverflowNameSayingNoneIsForgotten() {
        var table = PeerTable(peersPerChannel: 1)
        _ = table.observe(sighting("Alice", .five, at: 0))
        _ = table.observe(sighting("Bob", .five, at: 0))
        _ = table.observe(sighting("Bob", .none, at: 1))
        #expect(table.unshownCount(in: one) == 0)
    }

    @Test func theCountItselfIsBounded() {
        var table = PeerTable(peersPerChannel: 0)
        for i in 0..<(PeerTableOverflow.trackedLimit + 500) {
            _ = table.observe(sighting("n\(i)", .five, at: 0))
        }
        #expect(table.peers.isEmpty)
        #expect(table.unshownCount(in: one) == PeerTableOverflow.trackedLimit)
    }
}

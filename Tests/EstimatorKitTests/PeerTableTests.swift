import EstimatorKit
import Testing

/// Time is injected: `t(s)` is an instant `s` seconds after a fixed origin.
func t(_ seconds: Double) -> Timestamp {
    Timestamp(nanosecondsSince1970: 1_790_000_000_000_000_000 + Int64(seconds * 1e9))
}

func sighting(_ name: String, _ card: Card, at seconds: Double, channel: UInt8 = 1, rssi: Int? = -60) -> PeerSighting {
    PeerSighting(channel: Channel(rawValue: channel), name: name, card: card, rssi: rssi, time: t(seconds))
}

extension [PeerEvent] {
    /// `"joined Alice"`-style summaries, to compare sequences at a glance.
    var summary: [String] { map { "\($0.kind.rawValue) \($0.name)" } }
}

@Suite struct PeerTableTests {
    let one = Channel(rawValue: 1)

    @Test func aNewNameJoinsWithItsCardAndSignal() {
        var table = PeerTable()
        let events = table.observe(sighting("Alice", .five, at: 0, rssi: -48))
        #expect(events == [PeerEvent(.joined, PeerID(channel: one, name: "Alice"), card: .five, rssi: -48, time: t(0))])
        #expect(table.peers.map(\.name) == ["Alice"])
        #expect(table.peers.first?.isStale == false)
    }

    @Test func hearingTheSameCardAgainChangesNothingButTheSignal() {
        var table = PeerTable()
        _ = table.observe(sighting("Alice", .five, at: 0, rssi: -70))
        #expect(table.observe(sighting("Alice", .five, at: 1, rssi: -50)).isEmpty)
        #expect(table.peers.first?.rssi == -50)
        #expect(table.peers.first?.lastHeard == t(1))
    }

    @Test func aSightingWithoutSignalKeepsTheLastOne() {
        var table = PeerTable()
        _ = table.observe(sighting("Alice", .five, at: 0, rssi: -70))
        _ = table.observe(sighting("Alice", .five, at: 1, rssi: nil))
        #expect(table.peers.first?.rssi == -70)
    }

    @Test func anotherCardIsACardEvent() {
        var table = PeerTable()
        _ = table.observe(sighting("Alice", .five, at: 0))
        let events = table.observe(sighting("Alice", .coffee, at: 2))
        #expect(events.summary == ["card Alice"])
        #expect(events.first?.card == .coffee)
        #expect(events.first?.time == t(2))
    }

    @Test func cardNoneDropsAPeerAtOnce() {
        var table = PeerTable()
        _ = table.observe(sighting("Bob", .eight, at: 0))
        let events = table.observe(sighting("Bob", .none, at: 0.5))
        #expect(events.summary == ["left Bob"])
        #expect(events.first?.card == Card.none)
        #expect(table.peers.isEmpty)
    }

    @Test func aLeaversRepeatedGoodbyesDoNotBringItBack() {
        var table = PeerTable()
        _ = table.observe(sighting("Bob", .eight, at: 0))
        _ = table.observe(sighting("Bob", .none, at: 0.1))
        for i in 2...10 {
            #expect(table.observe(sighting("Bob", .none, at: Double(i) / 10)).isEmpty)
        }
        #expect(table.peers.isEmpty)
    }

    @Test func silenceForTheStaleTimeMakesAPeerStaleOnce() {
        var table = PeerTable()
        _ = table.observe(sighting("Alice", .five, at: 0))
        #expect(table.tick(now: t(5.999)).isEmpty)
        let events = table.tick(now: t(6))
        #expect(events.summary == ["stale Alice"])
        #expect(events.first?.time == t(6))
        #expect(table.peers.first?.isStale == true)
        #expect(table.tick(now: t(7)).isEmpty)
    }

    @Test func aStalePeerHeardAgainIsBack() {
        var table = PeerTable()
        _ = table.observe(sighting("Alice", .five, at: 0))
        _ = table.tick(now: t(10))
        let events = table.observe(sighting("Alice", .five, at: 11))
        #expect(events.summary == ["back Alice"])
        #expect(table.peers.first?.isStale == false)
        #expect(table.tick(now: t(16.5)).isEmpty)
        #expect(table.tick(now: t(17)).summary == ["stale Alice"])
    }

    @Test func backWithAnotherCardReportsBothInOrder() {
        var table = PeerTable()
        _ = table.observe(sighting("Alice", .five, at: 0))
        _ = table.tick(now: t(10))
        let events = table.observe(sighting("Alice", .thirteen, at: 11))
        #expect(events.map(\.kind) == [.back, .card])
        #expect(events.allSatisfy { $0.card == .thirteen })
    }

    @Test func thirtySecondsOfSilenceDropsAPeer() {
        var table = PeerTable()
        _ = table.observe(sighting("Alice", .five, at: 0))
        _ = table.tick(now: t(6))
        #expect(table.tick(now: t(29.9)).isEmpty)
        let events = table.tick(now: t(30))
        #expect(events.summary == ["left Alice"])
        #expect(events.first?.card == .five)
        #expect(table.peers.isEmpty)
    }

    @Test func oneLongGapDropsWithoutFirstGoingStale() {
        var table = PeerTable()
        _ = table.observe(sighting("Alice", .five, at: 0))
        #expect(table.tick(now: t(3600)).summary == ["left Alice"])
    }

    @Test func aDroppedPeerHeardAgainJoinsAgain() {
        var table = PeerTable()
        _ = table.observe(sighting("Alice", .five, at: 0))
        _ = table.tick(now: t(31))
        #expect(table.observe(sighting("Alice", .five, at: 32)).summary == ["joined Alice"])
    }

    /// BLUEZ-VM.md: the controller reports an advertiser once per discovery
    /// start, and the session restarts discovery every few seconds; so a peer
    /// that keeps advertising shows up once per restart and must stay fresh.
    @Test func aPeerSeenOncePerDiscoveryRestartNeverTurnsStale() {
        var table = PeerTable()
        var events: [PeerEvent] = []
        for second in stride(from: 0.0, through: 60, by: 0.5) {
            if second.truncatingRemainder(dividingBy: 5) == 0 {
                events += table.observe(sighting("Alice", .five, at: second))
            }
            events += table.tick(now: t(second))
        }
        #expect(events.summary == ["joined Alice"])
    }

    @Test func staleTimeIsConfigurable() {
        var table = PeerTable(staleAfter: .seconds(2), dropAfter: .seconds(4))
        _ = table.observe(sighting("Alice", .five, at: 0))
        #expect(table.tick(now: t(2)).summary == ["stale Alice"])
        #expect(table.tick(now: t(4)).summary == ["left Alice"])
    }

    @Test func peersAreKeyedByChannelAndNameNotByAddress() {
        var table = PeerTable()
        // Same name, two channels: two peers. (Sightings carry no address at
        // all, so an address change cannot split a person in two.)
        _ = table.observe(sighting("Alice", .five, at: 0, channel: 1))
        _ = table.observe(sighting("Alice", .eight, at: 0, channel: 2))
        #expect(table.peers.count == 2)
        #expect(table.channels == [Channel(rawValue: 1), Channel(rawValue: 2)])
        #expect(table.peers(in: Channel(rawValue: 2)).map(\.card) == [.eight])
        _ = table.observe(sighting("Alice", .none, at: 1, channel: 2))
        #expect(table.peers.map(\.id) == [PeerID(channel: one, name: "Alice")])
        #expect(table.channels == [one])
    }

    @Test func canonicallyEquivalentNamesAreOnePerson() {
        var table = PeerTable()
        _ = table.observe(sighting("전수열", .five, at: 0))
        let decomposed = "\u{110C}\u{1165}\u{11AB}\u{1109}\u{116E}\u{110B}\u{1167}\u{11AF}"
        #expect(table.observe(sighting(decomposed, .five, at: 1)).isEmpty)
        #expect(table.peers.count == 1)
    }

    @Test func tickReportsEveryoneInChannelAndNameOrder() {
        var table = PeerTable()
        for (i, name) in ["Zoe", "Amy", "전수열", "Bob"].enumerated() {
            _ = table.observe(sighting(name, .five, at: Double(i) / 10, channel: UInt8(2 - i % 2)))
        }
        #expect(table.tick(now: t(7)).summary == ["stale Amy", "stale Bob", "stale Zoe", "stale 전수열"])
        #expect(table.tick(now: t(7)).map(\.channel.rawValue) == [])
        let left = table.tick(now: t(40))
        #expect(left.map(\.channel.rawValue) == [1, 1, 2, 2])
    }
}

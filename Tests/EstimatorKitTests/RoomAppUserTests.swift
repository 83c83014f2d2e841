import EstimatorKit
import Testing

private let t0 = Timestamp(secondsSince1970: 1_790_000_000)

/// App users in a room (docs/PROTOCOL.md, Peers): told apart by the device
/// they come from, one row per iPhone across a change of its address.
private struct Air {
    var room = Room()
    var now = t0

    /// Hears `bytes` from `address`, advertising as the app does
    /// (discoverable), `after` the last input.
    @discardableResult
    mutating func hear(_ bytes: [UInt8], from address: String, discoverable: Bool = true,
                       after: Duration = .milliseconds(100)) -> Room.Update {
        now = now + after
        let packet = try! Packet(decoding: bytes)
        return room.hear(packet, rssi: -60, relayed: false,
                         from: Advertiser(address: address, isDiscoverable: discoverable), at: now)
    }

    @discardableResult
    mutating func hear(_ localName: String, from address: String, discoverable: Bool = true,
                       after: Duration = .milliseconds(100)) -> Room.Update {
        hear(Array(localName.utf8), from: address, discoverable: discoverable, after: after)
    }

    @discardableResult
    mutating func wait(_ duration: Duration) -> Room.Update {
        now = now + duration
        return room.tick(now: now)
    }

    /// Me, Cy (a laptop) and Carol (the app, not voted, at 4C:…:01) in
    /// channel 1's round, the room heard; I voted 5, Cy 3.
    static func votingWithCarol() -> Air {
        var air = Air()
        air.room.enter(Room.Me(channel: Channel(rawValue: 1), name: "Me", card: .waiting, observing: false), now: air.now)
        air.hear("2101FCCy", from: "11:00:00:00:00:01", discoverable: false)
        air.hear("0101FCCarol", from: "4C:00:00:00:00:01")
        air.wait(ChannelRound.listening)
        air.hear("0101FCCarol", from: "4C:00:00:00:00:01")
        _ = air.room.pick(.five, now: air.now)
        air.hear("210103Cy", from: "11:00:00:00:00:01", discoverable: false)
        return air
    }

    var rows: [Peer] { room.peers(in: .default) }
    var cards: [Card] { rows.map(\.card) }
}

@Suite struct RoomAppUserTests {
    /// An app user whose new card comes from a new address (held until
    /// known as theirs) is the vote on its way that a reveal's catch-up
    /// waits for: the cards do not show without them while it is held.
    @Test func aRevealsCatchUpWaitsForAnAppUsersHeldCard() {
        var air = Air.votingWithCarol()
        let one = Channel(rawValue: 1)
        air.hear("010108Carol", from: "4C:00:00:00:00:02")  // her vote, from a new address: held
        air.hear("310103Cy", from: "11:00:00:00:00:01", discoverable: false)  // Cy's laptop heard it first
        #expect(air.room.cardsDue(now: air.now) == nil,
                "an app user's card is read once the radio forgets her device at a restart: the restarts go on")
        air.wait(Ballot.catchUp)
        var tally = air.room.tally(of: one, now: air.now)
        #expect(!tally.isRevealed, "past the catch-up, Carol's card is still held here: not revealed without her")
        #expect(tally.waitingFor.map(\.name) == ["Carol"])
        air.wait(.seconds(1))  // her old address quiet for 3 s: the new one is hers
        tally = air.room.tally(of: one, now: air.now)
        #expect(tally.isRevealed)
        #expect(tally.entries.map { "\($0.name) \($0.mark)" } == ["Me shown(5)", "Carol shown(8)", "Cy shown(3)"])
    }

    /// An app user's vote from the address she had (iOS keeps one for
    /// about 15 minutes) is read here only at this radio's next restart:
    /// a reveal heard elsewhere waits for it past `catchUp`, up to
    /// `appCatchUp`, and then shows without her.
    @Test func aRevealsCatchUpWaitsLongerForAnAppUsersVoteFromHerAddress() {
        var air = Air.votingWithCarol()
        let one = Channel(rawValue: 1)
        air.hear("310103Cy", from: "11:00:00:00:00:01", discoverable: false)  // Cy's laptop heard her vote first
        let revealedAt = air.now
        air.wait(Ballot.catchUp)
        #expect(!air.room.tally(of: one, now: air.now).isRevealed,
                "past a laptop's catch-up: Carol's card comes at this radio's next restart")
        var waiting = air
        waiting.hear("0101FCCarol", from: "4C:00:00:00:00:01", after: .zero)  // a restart that came before her vote
        waiting.wait(revealedAt + Ballot.appCatchUp - waiting.now - .milliseconds(1))
        #expect(!waiting.room.tally(of: one, now: waiting.now).isRevealed)
        waiting.wait(.milliseconds(1))
        let without = waiting.room.tally(of: one, now: waiting.now)
        #expect(without.isRevealed, "a voter the revealing laptop heard is not waited for without end")
        #expect(without.waitingFor.map(\.name) == ["Carol"])
        air.hear("010108Carol", from: "4C:00:00:00:00:01", after: .seconds(1))  // her device forgotten at a restart
        let tally = air.room.tally(of: one, now: air.now)
        #expect(tally.isRevealed)
        #expect(tally.entries.map { "\($0.name) \($0.mark)" } == ["Me shown(5)", "Carol shown(8)", "Cy shown(3)"])
    }

    @Test func twoAppUsersWithOneCutNameAreTwoRows() {
        var air = Air()
        air.hear("0100FEAl", from: "4A:00:00:00:00:01")   // Alice
        air.hear("010005Al", from: "5B:00:00:00:00:02")   // Alex, while Alice is heard
        air.hear("0100FEAl", from: "4A:00:00:00:00:01", after: .milliseconds(1500))
        #expect(air.rows.map(\.id) == [
            PeerID(channel: .default, name: "Al", appUser: 1), PeerID(channel: .default, name: "Al", appUser: 2),
        ])
        #expect(air.cards == [.coffee, .five])
        #expect(air.rows.allSatisfy { $0.id.isApp })
    }

    @Test func aNewDeviceWithANameInUseWaitsUntilItIsKnownWhoItIs() {
        var air = Air()
        air.hear("0100FEAl", from: "4A:00:00:00:00:01")
        let held = air.hear("010005Al", from: "5B:00:00:00:00:02")
        #expect(held.events.isEmpty, "Alice or someone else: not shown yet")
        let alice = air.hear("0100FEAl", from: "4A:00:00:00:00:01", after: .milliseconds(1500))
        #expect(alice.events.map(\.kind) == [.joined], "Alice heard again: the new device is someone else")
        #expect(alice.events.first?.card == .five && alice.events.first?.id.appUser == 2)
    }

    @Test func oneAppUserChangingAddressStaysOneRow() {
        var air = Air()
        air.hear("0100FEAl", from: "4A:00:00:00:00:01")
        air.hear("0100FEAl", from: "4A:00:00:00:00:01", after: .milliseconds(1500))
        // The iPhone's random address changes: the old one is never heard again.
        #expect(air.hear("0100FEAl", from: "71:00:00:00:00:09", after: .milliseconds(1500)).events.isEmpty)
        var events: [PeerEvent] = []
        for _ in 0..<8 {
            events += air.hear("0100FEAl", from: "71:00:00:00:00:09", after: .milliseconds(500)).events
            events += air.wait(.milliseconds(100)).events
        }
        #expect(events.isEmpty, "no row joins, none goes stale")
        #expect(air.rows.map(\.id) == [PeerID(channel: .default, name: "Al", appUser: 1)])
        #expect(air.room.advertiser(of: air.rows[0].id)?.address == "71:00:00:00:00:09")
        // Its next card comes from the new address.
        let card = air.hear("010008Al", from: "71:00:00:00:00:09")
        #expect(card.events.map(\.kind) == [.card] && air.cards == [.eight])
        #expect(air.wait(.seconds(30)).events.map(\.kind) == [.left])
    }

    @Test func anAddressChangeBesideANamesakeAddsNoRow() {
        var air = Air()
        air.hear("010008Al", from: "4A:00:00:00:00:01")   // Alice
        air.hear("010005Al", from: "5B:00:00:00:00:02")   // Alex
        air.hear("010008Al", from: "4A:00:00:00:00:01", after: .milliseconds(1000))
        #expect(air.cards == [.eight, .five])
        // Alice's iPhone takes a new address; Alex's is heard meanwhile:
        // that says nothing about who the new device is.
        var events = air.hear("010008Al", from: "71:00:00:00:00:09", after: .milliseconds(1500)).events
        for _ in 0..<6 {
            events += air.hear("010005Al", from: "5B:00:00:00:00:02", after: .milliseconds(500)).events
            events += air.hear("010008Al", from: "71:00:00:00:00:09").events
            events += air.wait(.milliseconds(100)).events
        }
        #expect(events.isEmpty, "no row joins, none goes stale: \(events)")
        #expect(air.rows.map(\.id.appUser) == [1, 2] && air.cards == [.eight, .five])
        #expect(air.room.advertiser(of: air.rows[0].id)?.address == "71:00:00:00:00:09")
    }

    @Test func anAdvertiserChangingItsAddressOftenStaysOneRow() {
        // As e2e app-format's whole-packet advertiser, re-added every 1.5 s
        // from a new random address: each address is heard once or twice,
        // and a newer one may take the row before an older one is settled.
        var air = Air()
        var events = air.hear("010008Marguerite-Anne", from: "3C:00:00:00:00:00").events
        #expect(events.map(\.kind) == [.joined])
        events = []
        for n in 1...10 {
            let address = "1\(n % 10):00:00:00:00:00"
            events += air.hear("010008Marguerite-Anne", from: address, after: .milliseconds(500)).events
            events += air.wait(.milliseconds(500)).events
            if n.isMultiple(of: 2) {
                events += air.hear("010008Marguerite-Anne", from: address).events
            }
            events += air.wait(.milliseconds(400)).events
        }
        #expect(events.allSatisfy { $0.kind != .joined && $0.kind != .stale }, "\(events)")
        #expect(air.rows.count == 1)
    }

    @Test func aSecondPhoneIsShownOnceEveryNamesakeIsHeardAgain() {
        var air = Air()
        air.hear("010008Al", from: "4A:00:00:00:00:01")
        air.hear("010005Al", from: "5B:00:00:00:00:02")
        air.hear("010008Al", from: "4A:00:00:00:00:01", after: .milliseconds(1000))
        #expect(air.hear("010003Al", from: "6C:00:00:00:00:03").events.isEmpty, "a third Al: held")
        #expect(air.hear("010008Al", from: "4A:00:00:00:00:01", after: .milliseconds(500)).events.isEmpty,
                "Alex's phone may have moved to it")
        let alex = air.hear("010005Al", from: "5B:00:00:00:00:02", after: .milliseconds(500))
        #expect(alex.events.map(\.kind) == [.joined] && alex.events.first?.card == .three)
        #expect(air.rows.map(\.id.appUser) == [1, 2, 3])
    }

    @Test func aQuietAppUsersNewAddressTakesItsRowAtOnce() {
        var air = Air()
        air.hear("0100FEAl", from: "4A:00:00:00:00:01")
        #expect(air.wait(.seconds(7)).events.map(\.kind) == [.stale])
        let back = air.hear("0100FEAl", from: "71:00:00:00:00:09")
        #expect(back.events.map(\.kind) == [.back])
        #expect(air.rows.count == 1)
    }

    @Test func aCutKoreanNameIsAnAppUserWithNoWholeCharacter() {
        var air = Air()
        air.hear(Array("0100FE".utf8) + [0xEC, 0xA0], from: "4A:00:00:00:00:01")   // 전수열
        air.hear(Array("0100FE".utf8) + [0xEA, 0xB9], from: "5B:00:00:00:00:02")   // 김민수
        air.hear(Array("0100FE".utf8) + [0xEC, 0xA0], from: "4A:00:00:00:00:01", after: .milliseconds(1500))
        #expect(air.rows.map(\.id) == [
            PeerID(channel: .default, name: "", isNameCut: true, appUser: 1),
            PeerID(channel: .default, name: "", isNameCut: true, appUser: 2),
        ])
    }

    @Test func theAppUsersThirteenSentAsDWithACutName() {
        var air = Air()
        let joined = air.hear("0100DAli", from: "4A:00:00:00:00:01")
        #expect(joined.events.map(\.id) == [PeerID(channel: .default, name: "Ali", appUser: 1)])
        #expect(joined.events.first?.card == .thirteen)
    }

    @Test func theAppUserLeavingWithFFIsDroppedAndItsDeviceForgotten() {
        var air = Air()
        air.hear("0100FEAl", from: "4A:00:00:00:00:01")
        #expect(air.hear("0100FFAl", from: "4A:00:00:00:00:01").events.map(\.kind) == [.left])
        #expect(air.rows.isEmpty)
        #expect(air.hear("0100FEAl", from: "5B:00:00:00:00:02").events.map(\.kind) == [.joined])
        #expect(air.rows.map(\.id.appUser) == [1])
    }

    @Test func aSessionIsANameWhateverItsAddressAndIsNoAppUser() {
        var air = Air()
        // estimator cannot advertise discoverable: a name in a channel.
        air.hear("010005Ann", from: "4A:00:00:00:00:01", discoverable: false)
        air.hear("010005Ann", from: "5B:00:00:00:00:02", discoverable: false)
        #expect(air.rows.map(\.id) == [PeerID(channel: .default, name: "Ann")])
        // A discoverable advertiser with a round is a session too.
        air.hear("210005Bob", from: "6C:00:00:00:00:03")
        #expect(air.rows.map(\.id) == [PeerID(channel: .default, name: "Ann"), PeerID(channel: .default, name: "Bob")])
    }

    @Test func anAppUserWithMyNameIsNotMyEcho() {
        var air = Air()
        air.room.enter(Room.Me(channel: .default, name: "Al", card: .five), now: t0)
        air.hear("0100FEAl", from: "4A:00:00:00:00:01")
        air.hear("0000FEAl", from: "4A:00:00:00:00:02", discoverable: false)   // my own advertisement heard back
        #expect(air.rows.map(\.id) == [PeerID(channel: .default, name: "Al", appUser: 1)])
    }

    @Test func twoAppUsersOfOneNameVoteApart() {
        var air = Air()
        air.room.enter(Room.Me(channel: .default, name: "Me", card: .waiting), now: t0)
        air.room.open = true
        air.hear("010003Al", from: "4A:00:00:00:00:01")
        air.hear("010005Al", from: "5B:00:00:00:00:02")
        air.hear("010003Al", from: "4A:00:00:00:00:01", after: .milliseconds(1500))
        let tally = air.room.tally(of: .default, now: air.now)
        #expect(tally.entries.map(\.appUser) == [nil, 1, 2])
        #expect(tally.entries.dropFirst().map(\.mark) == [.shown(.three), .shown(.five)])
    }
}

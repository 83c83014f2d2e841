import EstimatorKit
import Testing

/// A room whose members use different decks: a card byte is one card in
/// every deck, so every table shows every card it hears, and my deck
/// decides only which card my stats round the mean to.
@Suite struct RoomDeckTests {
    private let channel = Channel(rawValue: 1)
    private let now = Timestamp(secondsSince1970: 1_790_000_000) + ChannelRound.listening

    private func room(deck: Deck, hearing names: [String]) -> Room {
        var room = Room()
        room.enter(Room.Me(channel: channel, name: "Me", card: .waiting, deck: deck), now: now - ChannelRound.listening)
        for (i, name) in names.enumerated() {
            _ = room.hear(try! Packet(decoding: name), rssi: -50, relayed: false, at: now + .milliseconds(i))
        }
        return room
    }

    @Test func everyTableShowsEveryCardItHearsWhateverItsDeck() {
        // Bob votes from powers of 2, Cy from T-shirt sizes; I use the app's deck.
        var room = room(deck: .app, hearing: ["230140Bob", "230182Cy"])
        room.pick(.five, now: now + .seconds(1))
        let tally = room.tally(of: channel, now: now + .seconds(1))
        let cards = Dictionary(uniqueKeysWithValues: tally.entries.map { ($0.name, $0.card) })
        #expect(cards["Bob"] == Card(integer: 64) && cards["Bob"]?.description == "64")
        #expect(cards["Cy"]?.description == "M")
        #expect(tally.stats.isMixed, "a size beside numbers: nothing averaged")
    }

    @Test func theMeanRoundsToMyDecksCard() {
        var powers = room(deck: .powers, hearing: ["230110Bob"])
        powers.pick(Card(integer: 64)!, now: now + .seconds(1))
        let stats = powers.tally(of: channel, now: now + .seconds(1)).stats
        #expect(stats.mean == 40 && stats.nearest == Card(integer: 32))
        var app = room(deck: .app, hearing: ["230110Bob"])
        app.pick(Card(integer: 64)!, now: now + .seconds(1))
        #expect(app.tally(of: channel, now: now + .seconds(1)).stats.nearest == .forty, "the same votes on the app's deck")
    }
}

import EstimatorKit
import SessionDaemon
import Testing
import Watch

/// `join --deck`: the cards a session lets me pick, switched like the role.
@Suite(.timeLimit(.minutes(2))) struct SessionDeckTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()

    private func session(deck: Deck) throws -> Session {
        Session(adapter: "hci0", channel: Channel(rawValue: 1), name: try PersonName.parse("Ann").name, deck: deck,
                radio: radio, clock: clock, pid: 4242, loop: testLoop)
    }

    @Test func aPickOutsideMyDeckIsRefusedWithTheDecksCards() async throws {
        let session = try session(deck: .fibonacci)
        try await session.start()
        let refused = await session.handle(.pick(Card(integer: 7)!))
        #expect(refused == ControlReply(exitCode: 64, message:
            "7 is not in the fibonacci deck; its cards are 0 1 2 3 5 8 13 21 34 55 89 ? ☕ (and none); `estimator join --deck` changes deck."))
        #expect(await session.card == .waiting, "nothing changed")
        #expect(await session.handle(.pick(Card(integer: 21)!)) == ControlReply(exitCode: 0, message: "picked 21"))
        await session.updatesDone()
        #expect(lastAdvertised() == "010115Ann", "21 is the byte 15")
        #expect(await session.handle(.pick(.coffee)).exitCode == 0, "coffee is in every deck")
    }

    @Test func joinSwitchesTheDeckAndTakesBackACardTheNewOneLacks() async throws {
        let session = try session(deck: .app)
        try await session.start()
        _ = await session.handle(.pick(.twenty))
        let reply = await session.handle(.join(channel: nil, name: nil, deck: .fibonacci))
        #expect(reply.message == "joined channel 1 as Ann with the fibonacci deck on hci0 (session pid 4242)")
        await session.updatesDone()
        #expect(lastAdvertised() == "0101FCAnn", "20 is no fibonacci card")
        #expect(await session.handle(.pick(Card(integer: 34)!)).exitCode == 0)
        _ = await session.handle(.join(channel: 2, name: nil))
        #expect(await session.deck == .fibonacci, "a join without --deck keeps it")
        await session.updatesDone()
        #expect(lastAdvertised() == "010222Ann", "a card of the deck is kept across a switch")
        let sizes = await session.handle(.join(channel: nil, name: nil, deck: .tshirt))
        #expect(sizes.message == "joined channel 2 as Ann with the tshirt deck on hci0 (session pid 4242)")
        #expect(await session.handle(.pick(Card.sizes[5])) == ControlReply(exitCode: 0, message: "picked XXL"))
        await session.updatesDone()
        #expect(lastAdvertised() == "010285Ann")
        let back = await session.handle(.join(channel: nil, name: nil, deck: .app))
        #expect(back.message == "joined channel 2 as Ann on hci0 (session pid 4242)", "the app's deck goes unsaid")
    }

    @Test func theForegroundKeysFollowTheDeck() {
        let app = CardKeys(deck: .app)
        #expect(app.legend == "keys: 0 h=½ 1 2 3 5 8 t=13 w=20 f=40 x=100 ? c=☕ n=none · r next round · v reveal · q leave")
        #expect(app.card(for: UInt8(ascii: "t")) == .thirteen)
        let fibonacci = CardKeys(deck: .fibonacci)
        #expect(fibonacci.legend == "keys: 0 1 2 3 5 8 a=13 b=21 d=34 e=55 f=89 ? c=☕ n=none · r next round · v reveal · q leave")
        #expect(fibonacci.card(for: UInt8(ascii: "b")) == Card(integer: 21))
        #expect(fibonacci.card(for: UInt8(ascii: "4")) == nil)
        let sizes = CardKeys(deck: .tshirt)
        #expect(sizes.legend.hasPrefix("keys: a=XS s=S m=M l=L b=XL d=XXL ? c=☕ n=none"))
        #expect(sizes.card(for: UInt8(ascii: "m")) == Card.sizes[2])
        let wide = CardKeys(deck: try! Deck(parsing: (10...99).map(String.init).joined(separator: ",")))
        #expect(wide.cards.count == 40 + 3, "as many as there are letters, then ? c n")
        #expect(wide.legend.contains("(more: estimator pick)"))
    }
}

import EstimatorKit
import Testing

@Suite struct DeckTests {
    @Test func theNamedDecksHaveTheirCards() {
        #expect(Deck.app.shown == "0 ½ 1 2 3 5 8 13 20 40 100 ? ☕")
        #expect(Deck.fibonacci.shown == "0 1 2 3 5 8 13 21 34 55 89 ? ☕")
        #expect(Deck.powers.shown == "0 1 2 4 8 16 32 64 ? ☕")
        #expect(Deck.tshirt.shown == "XS S M L XL XXL ? ☕")
        #expect(Deck.powers.cards.map(\.hex) == ["00", "01", "02", "04", "08", "10", "20", "40"])
        #expect(Deck.fibonacci.cards.suffix(3).map(\.hex) == ["22", "37", "59"])
    }

    @Test(arguments: [("app", Deck.app), ("fibonacci", .fibonacci), (" Powers ", .powers), ("TSHIRT", .tshirt)])
    func namedDecksParseByTheirWord(_ typed: String, _ deck: Deck) throws {
        #expect(try Deck(parsing: typed) == deck)
        #expect(try Deck(parsing: deck.description) == deck, "remembered as typed")
    }

    @Test func aListOfIntegersIsADeckInAscendingOrder() throws {
        let deck = try Deck(parsing: "8, 1,4,2")
        #expect(deck.cards == [.one, .two, Card(integer: 4)!, .eight])
        #expect(deck.word == nil)
        #expect(deck.description == "1,2,4,8")
        #expect(try Deck(parsing: deck.description) == deck)
        #expect(deck.phrase == "the deck 1,2,4,8")
        #expect(try Deck(parsing: "0,126").cards.map(\.hex) == ["00", "7E"])
    }

    @Test(arguments: [
        ("1,2,x", "'1,2,x' is not a deck: 'x' is not an integer from 0 to 126"),
        ("1,127", "'1,127' is not a deck: '127' is not an integer from 0 to 126"),
        ("1,,2", "'1,,2' is not a deck: '' is not an integer from 0 to 126"),
        ("1,2,1", "'1,2,1' is not a deck: 1 is in it twice"),
        ("1,0.5", "'1,0.5' is not a deck: '0.5' is not an integer from 0 to 126"),
        ("cards", "'cards' is not a deck"),
        ("", "'' is not a deck"),
    ])
    func badDecksSayWhatIsWrongAndWhatADeckIs(_ typed: String, _ why: String) {
        #expect(throws: DeckParseError.self) { try Deck(parsing: typed) }
        do { _ = try Deck(parsing: typed) } catch {
            #expect(error.description == why + "; a deck is app, fibonacci, powers, tshirt or integers from 0 to 126 such as 1,2,4,8.")
        }
    }

    @Test func aPickOutsideTheDeckNamesTheDecksCards() {
        #expect(throws: DeckCardError(card: Card(integer: 7)!, deck: .fibonacci)) { try Deck.fibonacci.check(Card(integer: 7)!) }
        #expect(DeckCardError(card: Card(integer: 7)!, deck: .fibonacci).description
            == "7 is not in the fibonacci deck; its cards are 0 1 2 3 5 8 13 21 34 55 89 ? ☕ (and none); `estimator join --deck` changes deck.")
        #expect(DeckCardError(card: .half, deck: try! Deck(parsing: "1,2")).description
            == "½ is not in the deck 1,2; its cards are 1 2 ? ☕ (and none); `estimator join --deck` changes deck.")
    }

    @Test func everyDeckAllowsUnsureCoffeeAndNone() {
        for deck in Deck.named {
            #expect(deck.allows(.question) && deck.allows(.coffee) && deck.allows(.waiting))
            #expect(!deck.allows(.none) && !deck.allows(.observing), "leaving and observing are no picks")
        }
        #expect(Deck.tshirt.allows(Card.sizes[2]) && !Deck.tshirt.allows(.five))
        #expect(!Deck.app.allows(Card(integer: 21)!) && Deck.fibonacci.allows(Card(integer: 21)!))
    }
}

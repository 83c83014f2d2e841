import Testing
@testable import EstimatorKit

@Suite struct CardTests {
    @Test func everyDeckCardRoundTripsThroughItsTypedName() throws {
        for card in Card.deck where card != .none {
            #expect(try Card(parsing: card.name!) == card)
        }
        #expect(try Card(parsing: "none") == .waiting, "picking none takes the card back; it never sends leaving")
    }

    @Test func byteValuesMatchTheAppsFormat() {
        #expect(Card.deck.map(\.hex) == ["00", "7F", "01", "02", "03", "05", "08", "0D", "14", "28", "64", "FD", "FE", "FC", "FF"])
    }

    @Test(arguments: ["½", "half", " 0.5 ", "HALF"]) func halfHasManySpellings(_ text: String) throws {
        #expect(try Card(parsing: text) == .half)
    }

    @Test(arguments: ["☕", "Coffee"]) func coffeeSpellings(_ text: String) throws {
        #expect(try Card(parsing: text) == .coffee)
    }

    @Test(arguments: ["clear", "-", "none", "waiting"]) func noneSpellingsTakeTheCardBack(_ text: String) throws {
        #expect(try Card(parsing: text) == .waiting)
    }

    @Test(arguments: ["?", "unsure", "UNSURE"]) func unsureNeedsNoShellQuoting(_ text: String) throws {
        #expect(try Card(parsing: text) == .question)
    }

    @Test func waitingAndLeavingAreNoVotes() {
        #expect(!Card.waiting.isVote && !Card.none.isVote)
        #expect(Card.question.isVote && Card.coffee.isVote && Card(rawValue: 0x42).isVote)
        #expect(Card.waiting.description == "·" && Card.waiting.name == "waiting" && Card.waiting.numericValue == nil)
    }

    @Test(arguments: ["4", "", "eight", "08", "1000", "-1"]) func notACardListsTheValidOnes(_ text: String) {
        #expect(throws: CardParseError(input: text)) { try Card(parsing: text) }
        #expect(CardParseError(input: text).description.hasSuffix("valid cards are 0 0.5 1 2 3 5 8 13 20 40 100 unsure (or '?') coffee none."))
    }

    @Test func unknownBytesAreKeptAndShownAsUnknown() {
        let card = Card(rawValue: 0x42)
        #expect(!card.isKnown)
        #expect(card.name == nil)
        #expect(card.numericValue == nil)
        #expect(card.description == "?42")
    }

    @Test func numericValuesFeedStatistics() {
        #expect(Card.half.numericValue == 0.5)
        #expect(Card.hundred.numericValue == 100)
        #expect(Card.coffee.numericValue == nil)
        #expect(Card.question.numericValue == nil)
        #expect(Card.none.numericValue == nil)
    }
}

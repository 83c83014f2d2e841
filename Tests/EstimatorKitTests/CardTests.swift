import EstimatorKit
import Testing

@Suite struct CardTests {
    @Test func everyDeckCardRoundTripsThroughItsTypedName() throws {
        for card in Deck.named.flatMap(\.cards) + [.question, .coffee] {
            #expect(try Card(parsing: card.name!) == card)
        }
        #expect(try Card(parsing: "none") == .waiting, "picking none takes the card back; it never sends leaving")
    }

    @Test func theAppsCardsKeepTheirBytes() {
        #expect((Deck.app.cards + [.question, .coffee, .waiting, .none]).map(\.hex)
            == ["00", "7F", "01", "02", "03", "05", "08", "0D", "14", "28", "64", "FD", "FE", "FC", "FF"])
    }

    @Test(arguments: [("21", "15"), ("34", "22"), ("64", "40"), ("0", "00"), ("126", "7E"), ("55", "37"), ("89", "59")])
    func anIntegerIsTheByteItEncodes(_ typed: String, _ hex: String) throws {
        let card = try Card(parsing: typed)
        #expect(card.hex == hex)
        #expect(card.name == typed && card.description == typed)
        #expect(card.numericValue == Double(typed))
        #expect(card.isKnown && card.sizeRank == nil)
    }

    @Test(arguments: [("XS", "80", 0), ("S", "81", 1), ("M", "82", 2), ("L", "83", 3), ("XL", "84", 4), ("XXL", "85", 5)])
    func sizesHaveNamedBytesOfTheirOwn(_ typed: String, _ hex: String, _ rank: Int) throws {
        let card = try Card(parsing: typed.lowercased())
        #expect(card.hex == hex && card.name == typed && card.description == typed)
        #expect(card.sizeRank == rank)
        #expect(card.numericValue == nil, "a size is never a number")
        #expect(card.isKnown && card.isVote)
    }

    @Test func noSizeByteStartsWithDSoTheQuirkTakesNothing() {
        #expect(Card.sizes.allSatisfy { !$0.hex.hasPrefix("D") })
        #expect(!Card(rawValue: 0xDA).isKnown)
    }

    @Test func halfIsSevenFTheLastByteBelowTheSizes() {
        #expect(Card.half.rawValue == Card.maximumInteger + 1)
        #expect(Card(integer: 127) == nil && Card(integer: -1) == nil && Card(integer: 126)?.hex == "7E")
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
        #expect(Card.question.isVote && Card.coffee.isVote && Card(rawValue: 0x99).isVote)
        #expect(Card.waiting.description == "·" && Card.waiting.name == "waiting" && Card.waiting.numericValue == nil)
    }

    @Test(arguments: ["127", "", "eight", "08", "1000", "-1", "+5", "1.5", "XXXL", "7F"]) func notACardSaysWhatACardIs(_ text: String) {
        #expect(throws: CardParseError(input: text)) { try Card(parsing: text) }
        #expect(CardParseError(input: text).description
            == "'\(text)' is not a card; a card is an integer from 0 to 126, 0.5, XS S M L XL XXL, unsure (or '?'), coffee or none.")
    }

    @Test func unknownBytesAreKeptAndShownAsUnknown() {
        let card = Card(rawValue: 0x99)
        #expect(!card.isKnown)
        #expect(card.name == nil)
        #expect(card.numericValue == nil)
        #expect(card.description == "?99")
        #expect(Card(rawValue: 0x42).numericValue == 66, "42 is no longer unknown: it is the integer 66")
    }

    @Test func numericValuesFeedStatistics() {
        #expect(Card.half.numericValue == 0.5)
        #expect(Card.hundred.numericValue == 100)
        #expect(Card.coffee.numericValue == nil)
        #expect(Card.question.numericValue == nil)
        #expect(Card.none.numericValue == nil)
    }
}

import EstimatorKit
import Testing

/// The agreed estimate of a revealed round.
@Suite struct AgreementTests {
    @Test func aConsensusIsTheCardEveryVoteIs() {
        #expect(Agreement.consensus([.five, .five, .five]) == .five)
        #expect(Agreement.consensus([Card.sizes[2], Card.sizes[2]]) == Card.sizes[2])
        #expect(Agreement.consensus([.half, .half]) == .half)
        #expect(Agreement.consensus([.half]) == nil, "one vote agrees with nobody")
        #expect(Agreement.consensus([.five, .eight]) == nil)
        #expect(Agreement.consensus([.five, .question]) == nil, "? beside it is no agreement")
        #expect(Agreement.consensus([.coffee, .coffee]) == nil)
        #expect(Agreement.consensus([Card]()) == nil)
    }

    @Test func anEstimateIsANumberOrASize() throws {
        for card in [Card.zero, .half, .five, Card(integer: 126)!] + Card.sizes { try Agreement.check(card) }
        for card in [Card.question, .coffee, .waiting, .none, .observing, Card(rawValue: 0x99)] {
            #expect(throws: AgreementError(card: card)) { try Agreement.check(card) }
        }
        #expect(AgreementError(card: .question).description == "? is no estimate; settle on a number or a size the team agreed on.")
    }
}

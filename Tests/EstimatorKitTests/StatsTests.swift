import EstimatorKit
import PropertyBased
import Testing

@Suite struct StatsTests {
    private func stats(_ entries: [(String, Card)]) -> Stats {
        Stats(entries.map { (name: $0.0, card: $0.1) })
    }

    @Test func theReadmesRoomHasMedianSixAndAHalfAndBothEndsExplain() {
        let s = stats([("전수열", .eight), ("Alice", .five), ("Bob", .coffee), ("Carol", .waiting)])
        #expect(s.votes == 3)
        #expect(s.numericVotes == 2)
        #expect(s.median == 6.5)
        #expect(s.mean == 6.5)
        #expect(s.nearest == .eight, "5 and 8 are equally near 6.5: the higher one")
        #expect(s.range == 5...8)
        #expect(!s.isConsensus)
        #expect(s.lowestAlone == Stats.Explainer(card: .five, name: "Alice"))
        #expect(s.highestAlone == Stats.Explainer(card: .eight, name: "전수열"))
        #expect(s.coffees == 1)
        #expect(s.questions == 0)
    }

    @Test func threeFivesAndAnEightLeaveOnlyTheEightToExplain() {
        let s = stats([("Alice", .five), ("Bob", .five), ("You", .five), ("전수열", .eight)])
        #expect(s.lowestAlone == nil)
        #expect(s.highestAlone == Stats.Explainer(card: .eight, name: "전수열"))
        #expect(s.nearest == .five)
    }

    @Test func oneVoteAloneIsNoConsensus() {
        #expect(!stats([("a", .five)]).isConsensus, "the others left, or were never heard")
        #expect(!stats([("a", .five), ("b", .waiting), ("c", .observing)]).isConsensus, "waiting and observing are no votes")
        #expect(stats([("a", .five), ("b", .five)]).isConsensus)
    }

    @Test func aQuestionBesideAgreementIsNoConsensus() {
        #expect(!stats([("a", .five), ("b", .five), ("c", .question)]).isConsensus)
        #expect(!stats([("a", .five), ("b", .five), ("c", .coffee)]).isConsensus)
        #expect(stats([("a", .five), ("b", .five), ("c", .waiting), ("d", .none)]).isConsensus,
                "waiting and leaving are no votes")
    }

    @Test func oddCountTakesTheMiddleCard() {
        let s = stats([("a", .one), ("b", .hundred), ("c", .three)])
        #expect(s.median == 3)
        #expect(s.mean == 104.0 / 3)
        #expect(s.nearest == .forty)
    }

    @Test func halfCountsAsHalf() {
        let s = stats([("a", .half), ("b", .zero)])
        #expect(s.range == 0...0.5)
        #expect(s.median == 0.25)
        #expect(s.nearest == .half)
        #expect(s.lowestAlone?.name == "b")
        #expect(s.highestAlone?.name == "a")
    }

    @Test func sharedEndsHaveNobodyAlone() {
        let s = stats([("Zoe", .two), ("Bob", .thirteen), ("Amy", .two), ("Cy", .thirteen), ("Di", .five)])
        #expect(s.lowestAlone == nil && s.highestAlone == nil)
    }

    @Test func unknownBytesAreVotesWithoutANumber() {
        let s = stats([("a", Card(rawValue: 0x99)), ("b", .eight)])
        #expect(s.votes == 2)
        #expect(s.numericVotes == 1)
        #expect(s.median == 8)
        #expect(!s.isConsensus)
    }

    @Test func noNumericVotesHasNoFiguresAndNoConsensus() {
        let s = stats([("a", .question), ("b", .none)])
        #expect(s.median == nil && s.mean == nil && s.range == nil && s.nearest == nil)
        #expect(!s.isConsensus)
        #expect(s.lowestAlone == nil && s.highestAlone == nil)
        #expect(s.votes == 1)
    }

    @Test func emptyRoom() {
        let s = stats([])
        #expect(s.votes == 0 && s.median == nil)
    }

    @Test func anyRoomKeepsTheFiguresInsideTheRange() async {
        await propertyCheck(input: Gen.int(in: 0...255).array(of: 0...20)) { bytes in
            let s = stats(bytes.enumerated().map { ("p\($0.offset)", Card(rawValue: UInt8($0.element))) })
            #expect(s.votes == bytes.filter { ![0xFF, 0xFC, 0xF9].contains($0) }.count, "leaving, waiting and observing are no votes")
            if let range = s.range, let median = s.median, let mean = s.mean, let nearest = s.nearest?.numericValue {
                #expect(range.contains(median))
                #expect(range.contains(mean))
                #expect(nearest >= 0 && nearest <= 100)
                #expect(s.isConsensus == (range.lowerBound == range.upperBound && s.numericVotes == s.votes && s.votes >= 2))
            } else {
                #expect(s.numericVotes == 0 || s.isMixed, "numbers are added up unless sizes are voted beside them")
            }
            #expect(s.isMixed == (s.numericVotes > 0 && s.sizeVotes > 0))
            if s.isMixed { #expect(s.medianSize == nil && !s.isConsensus) }
        }
    }

    // Per deck: numbers give median, mean and the nearest card of my deck.

    @Test func theMeanRoundsToTheNearestCardOfMyDeck() {
        let votes: [(name: String, card: Card)] = [("a", Card(integer: 21)!), ("b", Card(integer: 34)!), ("c", Card(integer: 34)!)]
        let fibonacci = Stats(votes, deck: .fibonacci)
        #expect(fibonacci.median == 34)
        #expect(fibonacci.mean == 89.0 / 3)
        #expect(fibonacci.nearest == Card(integer: 34), "29.67 is nearer 34 than 21")
        #expect(Stats(votes, deck: .app).nearest == .twenty, "the same votes on the app's deck: 20 is 9.67 away, 40 is 10.33")
        #expect(fibonacci.lowestAlone == Stats.Explainer(card: Card(integer: 21)!, name: "a"))
    }

    @Test func powersOfTwoRoundToAPower() {
        let s = Stats([(name: "a", card: Card(integer: 16)!), (name: "b", card: Card(integer: 64)!)], deck: .powers)
        #expect(s.median == 40 && s.mean == 40)
        #expect(s.nearest == Card(integer: 32), "40 is 8 from 32 and 24 from 64")
    }

    @Test func aDeckWithoutNumbersHasNoNearestCard() {
        let s = Stats([(name: "a", card: .five), (name: "b", card: .eight)], deck: .tshirt)
        #expect(s.mean == 6.5 && s.nearest == nil)
    }

    // T-shirt sizes give the median size and the spread.

    @Test func sizesGiveTheMedianSizeAndTheSpread() {
        let (s, m, l, xl) = (Card.sizes[1], Card.sizes[2], Card.sizes[3], Card.sizes[4])
        let odd = Stats([(name: "a", card: s), (name: "b", card: xl), (name: "c", card: m), (name: "d", card: .coffee)], deck: .tshirt)
        #expect(odd.sizeVotes == 3 && odd.numericVotes == 0 && odd.votes == 4)
        #expect(odd.medianSize == m)
        #expect(odd.sizeSpread == 1...4)
        #expect(odd.median == nil && odd.mean == nil && odd.nearest == nil, "sizes are never averaged")
        #expect(odd.lowestAlone == Stats.Explainer(card: s, name: "a"))
        #expect(odd.highestAlone == Stats.Explainer(card: xl, name: "b"))
        #expect(!odd.isConsensus && !odd.isMixed)
        let even = Stats([(name: "a", card: s), (name: "b", card: l)], deck: .tshirt)
        #expect(even.medianSize == l, "of two middle sizes, the larger")
        #expect(Stats([(name: "a", card: m), (name: "b", card: m)]).isConsensus)
    }

    @Test func aMixedRoomIsSaidToBeMixedAndNotAveraged() {
        let s = Stats([(name: "a", card: .five), (name: "b", card: Card.sizes[2]), (name: "c", card: .eight)], deck: .app)
        #expect(s.isMixed)
        #expect(s.numericVotes == 2 && s.sizeVotes == 1)
        #expect(s.median == nil && s.mean == nil && s.nearest == nil && s.medianSize == nil && s.sizeSpread == nil)
        #expect(!s.isConsensus && s.lowestAlone == nil && s.highestAlone == nil)
    }
}

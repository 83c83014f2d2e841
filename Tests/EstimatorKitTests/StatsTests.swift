import Testing
import PropertyBased
@testable import EstimatorKit

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
        let s = stats([("a", Card(rawValue: 0x42)), ("b", .eight)])
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
                #expect(s.isConsensus == (range.lowerBound == range.upperBound && s.numericVotes == s.votes))
            } else {
                #expect(s.numericVotes == 0)
            }
        }
    }
}

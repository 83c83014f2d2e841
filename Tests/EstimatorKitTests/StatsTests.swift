import Testing
import PropertyBased
@testable import EstimatorKit

@Suite struct StatsTests {
    private func stats(_ entries: [(String, Card)]) -> Stats {
        Stats(entries.map { (name: $0.0, card: $0.1) })
    }

    @Test func theDesignsRoomHasMedianFiveAndAliceAndSuyeolExplain() {
        let s = stats([("전수열", .eight), ("Alice", .five), ("Bob", .coffee), ("Carol", .none)])
        #expect(s.people == 4)
        #expect(s.picked == 3)
        #expect(s.numericPicks == 2)
        #expect(s.median == 6.5)
        #expect(s.mean == 6.5)
        #expect(s.range == 5...8)
        #expect(!s.isConsensus)
        #expect(s.lowestHolders == ["Alice"])
        #expect(s.highestHolders == ["전수열"])
        #expect(s.coffees == 1)
        #expect(s.questions == 0)
    }

    @Test func oddCountTakesTheMiddleCard() {
        let s = stats([("a", .one), ("b", .hundred), ("c", .three)])
        #expect(s.median == 3)
        #expect(s.mean == 104.0 / 3)
    }

    @Test func halfCountsAsHalf() {
        let s = stats([("a", .half), ("b", .zero)])
        #expect(s.range == 0...0.5)
        #expect(s.median == 0.25)
        #expect(s.lowestHolders == ["b"])
        #expect(s.highestHolders == ["a"])
    }

    @Test func agreeingNumericPicksAreConsensusWhateverTheNonNumericOnesSay() {
        let s = stats([("a", .five), ("b", .five), ("c", .question), ("d", .coffee), ("e", .none)])
        #expect(s.isConsensus)
        #expect(s.questions == 1)
        #expect(s.coffees == 1)
        #expect(s.picked == 4)
        #expect(s.lowestHolders == ["a", "b"])
        #expect(s.highestHolders == ["a", "b"])
    }

    @Test func tiesAtEitherEndListEveryHolderSorted() {
        let s = stats([("Zoe", .two), ("Bob", .thirteen), ("Amy", .two), ("Cy", .thirteen), ("Di", .five)])
        #expect(s.lowestHolders == ["Amy", "Zoe"])
        #expect(s.highestHolders == ["Bob", "Cy"])
    }

    @Test func unknownBytesArePickedButNotNumeric() {
        let s = stats([("a", Card(rawValue: 0x42)), ("b", .eight)])
        #expect(s.picked == 2)
        #expect(s.numericPicks == 1)
        #expect(s.median == 8)
        #expect(s.isConsensus)
    }

    @Test func noNumericPicksHasNoFiguresAndNoConsensus() {
        let s = stats([("a", .question), ("b", .none)])
        #expect(s.median == nil && s.mean == nil && s.range == nil)
        #expect(!s.isConsensus)
        #expect(s.lowestHolders.isEmpty && s.highestHolders.isEmpty)
        #expect(s.picked == 1)
    }

    @Test func emptyRoom() {
        let s = stats([])
        #expect(s.people == 0 && s.picked == 0 && s.median == nil)
    }

    @Test func anyRoomKeepsTheFiguresInsideTheRange() async {
        await propertyCheck(input: Gen.int(in: 0...255).array(of: 0...20)) { bytes in
            let s = stats(bytes.enumerated().map { ("p\($0.offset)", Card(rawValue: UInt8($0.element))) })
            #expect(s.people == bytes.count)
            #expect(s.picked == bytes.filter { $0 != 0xFF }.count)
            if let range = s.range, let median = s.median, let mean = s.mean {
                #expect(range.contains(median))
                #expect(range.contains(mean))
                #expect(!s.lowestHolders.isEmpty && !s.highestHolders.isEmpty)
            } else {
                #expect(s.numericPicks == 0)
            }
        }
    }
}

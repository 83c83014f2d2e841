import EstimatorKit
import Testing
@testable import Rendering

@Suite struct RenderingCellTests {
    @Test(arguments: [
        (-30, "━━━━"), (-50, "━━━━"), (-56, "━━━╸"), (-62, "━━━"), (-75, "━━"), (-88, "╸"), (-99, "╸"), (-127, "╸"),
    ] as [(Int, String)])
    func signalBarsFollowTheStrength(rssi: Int, bars: String) {
        #expect(SignalBars.bars(rssi: rssi) == bars)
    }

    @Test func noSignalIsBlank() {
        #expect(SignalBars.bars(rssi: nil) == "")
    }

    @Test(arguments: [
        (Duration.zero, "now"), (.milliseconds(99), "now"), (.milliseconds(-500), "now"),
        (.milliseconds(100), "0.1s"), (.milliseconds(400), "0.4s"), (.milliseconds(1299), "1.2s"),
        (.milliseconds(9999), "9.9s"), (.seconds(10), "10s"), (.seconds(59), "59s"), (.seconds(60), "1m"),
        (.seconds(3600), "60m"),
    ] as [(Duration, String)])
    func seenAgeIsShort(age: Duration, text: String) {
        #expect(SeenAge.text(age) == text)
    }

    @Test(arguments: [(5.0, "5"), (6.5, "6.5"), (0.25, "0.25"), (104.0 / 3, "34.67"), (0.05, "0.05"), (100, "100")]
          as [(Double, String)])
    func footerNumbersHaveAtMostTwoDecimals(value: Double, text: String) {
        #expect(StatsFooter.number(value) == text)
    }

    @Test func footerSaysWhoExplainsAndCountsQuestionsAndCoffee() {
        let stats = Stats([
            (name: "Amy", card: .two), (name: "Zoe", card: .two), (name: "Bob", card: .thirteen),
            (name: "Cy", card: .question), (name: "Di", card: .coffee), (name: "Ed", card: .coffee),
        ])
        #expect(StatsFooter.parts(stats) == [
            "median 2", "mean 5.67", "range 2–13", "no consensus: Amy, Zoe and Bob explain", "? 1", "☕ 2",
        ])
    }

    @Test func footerForConsensusSinglePickAndNoNumbers() {
        #expect(StatsFooter.parts(Stats([(name: "a", card: .eight), (name: "b", card: .eight)])) == ["consensus: 8"])
        #expect(StatsFooter.parts(Stats([(name: "a", card: .eight), (name: "b", card: .none)])) == ["median 8"])
        #expect(StatsFooter.parts(Stats([(name: "a", card: .question)])) == ["no numbers picked yet", "? 1"])
        #expect(StatsFooter.parts(Stats([])) == ["nobody heard yet"])
    }

    @Test func footerLinesPackPartsWithinTheWidth() {
        let stats = Stats([(name: "Alice", card: .five), (name: "전수열", card: .eight), (name: "Bob", card: .coffee)])
        #expect(StatsFooter.lines(stats, width: 200) == [
            " median 6.5 · mean 6.5 · range 5–8 · no consensus: Alice and 전수열 explain · ☕ 1"
        ])
        #expect(StatsFooter.lines(stats, width: 40) == [
            " median 6.5 · mean 6.5 · range 5–8", " no consensus: Alice and 전수열 explain", " ☕ 1",
        ])
        #expect(StatsFooter.lines(stats, width: 20).allSatisfy { TerminalText.displayWidth($0) <= 20 })
    }

    @Test func truncationCutsBetweenClustersByDisplayWidth() {
        #expect(TextFitting.truncate("전수열", toWidth: 6) == "전수열")
        #expect(TextFitting.truncate("전수열", toWidth: 5) == "전수…")
        #expect(TextFitting.truncate("전수열", toWidth: 4) == "전…")
        #expect(TextFitting.truncate("👍🏽👍🏽", toWidth: 3) == "👍🏽…")
        #expect(TextFitting.truncate("abc", toWidth: 0) == "")
        #expect(TextFitting.fit("전", toWidth: 4) == "전  ")
    }

    @Test func standaloneDropsWhatWouldFuseWithTheGap() {
        #expect(TextFitting.standalone("\u{301}\u{1F3FD}Ann") == "Ann")
        #expect(TextFitting.standalone("Ann\u{600}") == "Ann")
        #expect(TextFitting.standalone("e\u{301}") == "e\u{301}")
        #expect(TextFitting.standalone("👍🏽") == "👍🏽")
        #expect(TextFitting.standalone("\u{301}") == "")
    }
}

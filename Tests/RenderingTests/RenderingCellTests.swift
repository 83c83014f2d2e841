import EstimatorKit
import Rendering
import Testing

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
        // Amy and Zoe share the low end: only Bob sits alone, at the high one.
        #expect(StatsFooter.parts(stats) == ["median 2", "mean 5.67 ≈ 5", "13: Bob explains", "? 1", "☕ 2"])
    }

    @Test func theIssuesRoomsSayWhatTheyAddUpTo() {
        let fives = Stats([(name: "Alice", card: .five), (name: "Bob", card: .five), (name: "You", card: .five),
                           (name: "전수열", card: .eight)])
        #expect(StatsFooter.parts(fives) == ["median 5", "mean 5.75 ≈ 5", "8: 전수열 explains"])
        let unsure = Stats([(name: "Alice", card: .five), (name: "Bob", card: .five), (name: "Cy", card: .question)])
        #expect(StatsFooter.parts(unsure) == ["median 5", "mean 5", "? 1"])
        let ends = Stats([(name: "Bob", card: .three), (name: "Alice", card: .five), (name: "전수열", card: .eight)])
        #expect(StatsFooter.parts(ends) == ["median 5", "mean 5.33 ≈ 5", "8: 전수열 explains", "3: Bob explains"])
    }

    @Test func footerForSizesGivesTheMedianSizeAndTheSpread() {
        let (s, m, xl) = (Card.sizes[1], Card.sizes[2], Card.sizes[4])
        let sizes = Stats([(name: "Amy", card: s), (name: "Bob", card: m), (name: "Cy", card: xl), (name: "Di", card: .coffee)],
                          deck: .tshirt)
        #expect(StatsFooter.parts(sizes) == ["median M", "S to XL", "XL: Cy explains", "S: Amy explains", "☕ 1"])
        #expect(StatsFooter.parts(Stats([(name: "a", card: m), (name: "b", card: m)])) == ["consensus: M"])
    }

    @Test func footerForAMixedRoomSaysSoInsteadOfAveraging() {
        let mixed = Stats([(name: "a", card: .five), (name: "b", card: Card(integer: 64)!), (name: "c", card: Card.sizes[3])])
        #expect(StatsFooter.parts(mixed) == ["mixed decks: 2 numbers and 1 size, not averaged"])
    }

    @Test func footerRoundsTheMeanToTheDecksCard() {
        let votes: [(name: String, card: Card)] = [("a", Card(integer: 21)!), ("b", Card(integer: 34)!), ("c", Card(integer: 34)!)]
        #expect(StatsFooter.parts(Stats(votes, deck: .fibonacci)) == ["median 34", "mean 29.67 ≈ 34", "21: a explains"])
    }

    @Test func footerForConsensusAndNoNumbers() {
        #expect(StatsFooter.parts(Stats([(name: "a", card: .eight), (name: "b", card: .eight)])) == ["consensus: 8"])
        #expect(StatsFooter.parts(Stats([(name: "a", card: .eight), (name: "b", card: .waiting)])) == ["one vote: 8"],
                "one vote agrees with nobody")
        #expect(StatsFooter.parts(Stats([(name: "a", card: Card.sizes[2])])) == ["one vote: M"])
        #expect(StatsFooter.parts(Stats([(name: "a", card: .question)])) == ["no numbers voted", "? 1"])
        #expect(StatsFooter.parts(Stats([])) == ["no votes"])
    }

    @Test func footerBeforeTheRevealSaysWhoIsLeft() {
        let section = TableSection(channel: Channel(rawValue: 1), rows: [
            TableRow(name: "You", mark: .hidden, rssi: nil, lastSeen: .zero, isMe: true),
            TableRow(name: "Bob", mark: .waiting, rssi: -50, lastSeen: .seconds(1)),
            TableRow(name: "Alice", mark: .waiting, rssi: -50, lastSeen: .seconds(1)),
            TableRow(name: "Carol", mark: .hidden, rssi: -50, lastSeen: .seconds(1)),
            TableRow(name: "Dan", mark: .hidden, rssi: -50, lastSeen: .seconds(9), isStale: true),
        ])
        #expect(StatsFooter.parts(section) == ["2 of 4 voted", "waiting for Alice and Bob"])
        #expect(StatsFooter.parts(TableSection(channel: Channel(rawValue: 1), rows: [])) == ["nobody heard yet"])
    }

    @Test func footerLinesPackPartsWithinTheWidth() {
        let section = TableSection(channel: Channel(rawValue: 1), rows: [
            TableRow(name: "Alice", card: .five, rssi: -50, lastSeen: .seconds(1)),
            TableRow(name: "전수열", card: .eight, rssi: -50, lastSeen: .seconds(1)),
            TableRow(name: "Bob", card: .coffee, rssi: -50, lastSeen: .seconds(1)),
        ])
        #expect(StatsFooter.lines(section, width: 200) == [
            " median 6.5 · mean 6.5 ≈ 8 · 8: 전수열 explains · 5: Alice explains · ☕ 1"
        ])
        #expect(StatsFooter.lines(section, width: 40) == [
            " median 6.5 · mean 6.5 ≈ 8", " 8: 전수열 explains · 5: Alice explains", " ☕ 1",
        ])
        #expect(StatsFooter.lines(section, width: 20).allSatisfy { TerminalText.displayWidth($0) <= 20 })
    }

    @Test(arguments: [
        ([:], true), (["LANG": "C"], true), (["LANG": "en_US.UTF-8"], false), (["LANG": "ko_KR.utf8"], false),
        (["LANG": "en_US.UTF-8", "LC_ALL": "C"], true), (["LC_CTYPE": "C.UTF-8", "LANG": "C"], false),
        (["LANG": "de_DE.ISO-8859-1"], true), (["LC_ALL": "", "LANG": "C.UTF-8"], false),
    ] as [([String: String], Bool)])
    func asciiIsForLocalesThatAreNotUTF8(environment: [String: String], ascii: Bool) {
        #expect(ASCIIFallback.isNeeded(environment: environment) == ascii)
    }

    @Test func asciiSpellsOutTheTablesSymbolsAndHidesTheRest() {
        #expect(ASCIIFallback.fold("median 5 · ☕ 2 · ½ ≈ 1 … ✓") == "median 5 . coffee 2 . 1/2 ~ 1 ~ *")
        #expect(ASCIIFallback.fold("전수열 👍🏽 e\u{301}") == "??? ? ?")
        #expect(ASCIIFallback.fold("plain") == "plain")
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

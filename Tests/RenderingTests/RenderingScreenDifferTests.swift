import EstimatorKit
import Rendering
import Testing

@Suite struct RenderingScreenDifferTests {
    let size = TerminalSize(columns: 80, rows: 24)
    let frame = ["header", "titles", "row A", "row B", "row C", "footer"]

    @Test func theFirstFrameWritesEveryLineAndClearsBelowIt() {
        var differ = ScreenDiffer()
        let out = differ.update(to: frame, size: size)
        #expect(out == "\u{1B}[1Hheader\u{1B}[K\r\ntitles\u{1B}[K\r\nrow A\u{1B}[K\r\nrow B\u{1B}[K\r\nrow C\u{1B}[K"
                + "\r\nfooter\u{1B}[K\u{1B}[7H\u{1B}[J")
    }

    @Test func anUnchangedFrameWritesNothing() {
        var differ = ScreenDiffer()
        _ = differ.update(to: frame, size: size)
        #expect(differ.update(to: frame, size: size).isEmpty)
    }

    @Test func oneChangedRowWritesOnlyThatLine() {
        var differ = ScreenDiffer()
        _ = differ.update(to: frame, size: size)
        var next = frame
        next[3] = "row B picked 8"
        #expect(differ.update(to: next, size: size) == "\u{1B}[4Hrow B picked 8\u{1B}[K")
    }

    @Test func adjacentChangesMoveDownByNewlineAndApartByCursorPosition() {
        var differ = ScreenDiffer()
        _ = differ.update(to: frame, size: size)
        var next = frame
        next[2] = "A2"
        next[3] = "B2"
        next[5] = "F2"
        #expect(differ.update(to: next, size: size) == "\u{1B}[3HA2\u{1B}[K\r\nB2\u{1B}[K\u{1B}[6HF2\u{1B}[K")
    }

    @Test func aShorterFrameClearsTheLinesItLost() {
        var differ = ScreenDiffer()
        _ = differ.update(to: frame, size: size)
        let shorter = ["header", "titles", "row A", "footer"]
        #expect(differ.update(to: shorter, size: size) == "\u{1B}[4Hfooter\u{1B}[K\u{1B}[5H\u{1B}[J")
    }

    @Test func aLongerFrameWritesOnlyTheNewLines() {
        var differ = ScreenDiffer()
        _ = differ.update(to: frame, size: size)
        #expect(differ.update(to: frame + ["more"], size: size) == "\u{1B}[7Hmore\u{1B}[K")
    }

    @Test func aResizeRewritesEveryLineWithoutAFullClear() {
        var differ = ScreenDiffer()
        _ = differ.update(to: frame, size: size)
        let out = differ.update(to: frame, size: TerminalSize(columns: 60, rows: 24))
        for line in frame { #expect(out.contains(line + "\u{1B}[K")) }
        #expect(!out.contains("\u{1B}[2J"))
        #expect(out.hasSuffix("\u{1B}[7H\u{1B}[J"))
    }

    @Test func neverWritesBelowTheLastRowOfTheScreen() {
        var differ = ScreenDiffer()
        let small = TerminalSize(columns: 80, rows: 3)
        let out = differ.update(to: frame, size: small)
        #expect(out == "\u{1B}[1Hheader\u{1B}[K\r\ntitles\u{1B}[K\r\nrow A\u{1B}[K")
        #expect(differ.update(to: frame, size: small).isEmpty)
    }

    @Test func aRealTableUpdateRewritesOneRowOfAHundredAndTheFooter() {
        var rows = (0..<100).map {
            TableRow(name: "peer \($0 < 10 ? "0" : "")\($0)", card: .three, rssi: -60, lastSeen: .seconds(2))
        }
        let screen = TerminalSize(columns: 100, rows: 120)
        var renderer = TableRenderer(color: true)
        func frame() -> [String] {
            renderer.lines(LiveTable(sections: [TableSection(channel: Channel(rawValue: 1), rows: rows)],
                                     adapter: "hci0"), size: screen)
        }
        var differ = ScreenDiffer()
        let old = frame()
        let full = differ.update(to: old, size: screen)
        rows[42].mark = .shown(.five)
        let new = frame()
        let update = differ.update(to: new, size: screen)
        // Header and other rows keep their lines; the footer's figures change.
        #expect(old.count == 103 && new.count == 103)
        #expect(update.hasPrefix("\u{1B}[45H peer 42  5 "))
        #expect(update.hasSuffix("\u{1B}[103H\(new[102])\u{1B}[K"))
        #expect(update.split(separator: "\u{1B}[K").count == 2)
        #expect(update.utf8.count < full.utf8.count / 20)
    }
}

import EstimatorKit
import Rendering
import Testing

/// Names come from the air: whatever they hold, a frame holds no control
/// byte but the renderer's own SGR sequences and the differ's cursor moves.
@Suite struct RenderingHostileNameTests {
    static let hostile = [
        "\u{1B}[2J\u{1B}[HOwned",  // clear screen
        "\u{1B}]52;c;cm0gLXJmIH4=\u{07}Clip",  // OSC 52 clipboard write
        "Bell\u{07}\u{07}",
        "\u{202E}evilname\u{202C}",  // bidi override
        "\u{2067}iso\u{2069}",
        "tab\tnew\nline\r",
        "c1\u{9B}31mred",
        "\u{1B}P1;2|dcs\u{1B}\\",
        "\u{FFFD}broken",
        "zero\u{200B}width",
        "line\u{2028}sep",
        "\u{1B}",
        "",
    ]

    @Test(arguments: hostile) func aHostileNameLeavesNoControlInTheFrame(_ name: String) {
        let frame = render(names: [name, "Alice"], color: true)
        let stripped = withoutOwnSequences(frame.joined(separator: "\n"))
        #expect(!stripped.unicodeScalars.contains { isControl($0) && $0 != "\n" }, "\(stripped.debugDescription)")
        #expect(stripped.contains("Alice"))
    }

    @Test func randomNamesFromAHostileAlphabetNeverLeakAControl() {
        // Controls, escapes, bidi, wide and zero-width characters, ASCII.
        let alphabet: [Unicode.Scalar] = [
            "\u{1B}", "[", "]", "\u{07}", "\u{9B}", "\u{9D}", "\u{202E}", "\u{2066}", "\u{0}", "\u{7F}",
            "\n", "\r", "\u{8}", ";", "2", "J", "m", "\\", "P", "전", "👍", "\u{1F3FD}", "\u{301}",
            "\u{200D}", "a", " ", "\u{FE0F}", "\u{115F}", "\u{1160}", "東",
            "\u{0600}", "\u{1F1F0}", "\u{E0067}",
        ]
        var rng = SeededGenerator(state: 0x5EED)
        var differ = ScreenDiffer()
        let size = TerminalSize(columns: 60, rows: 30)
        for _ in 0..<500 {
            let names = (0..<4).map { _ in
                String(String.UnicodeScalarView((0..<Int.random(in: 0...16, using: &rng)).map { _ in
                    alphabet.randomElement(using: &rng)!
                }))
            }
            let frame = render(names: names, color: true, size: size)
            for line in frame {
                #expect(!withoutOwnSequences(line).unicodeScalars.contains(where: isControl), "\(line.debugDescription)")
                #expect(TerminalText.displayWidth(withoutOwnSequences(line)) <= size.columns - 1)
            }
            #expect(Set(frame[2..<6].map { TerminalText.displayWidth(withoutOwnSequences($0)) }).count == 1)
            // What the differ writes: only its own cursor and erase sequences
            // (ESC [ row H, ESC [ K, ESC [ J), CR LF and the lines.
            var output = differ.update(to: frame, size: size)
            output = output.replacing(/\x1B\[\d+H|\x1B\[K|\x1B\[J|\r\n/, with: "")
            #expect(!withoutOwnSequences(output).unicodeScalars.contains(where: isControl))
        }
    }

    @Test func hostileNamesInTheFooterAreSanitisedToo() {
        let rows = [
            TableRow(name: "\u{1B}]0;title\u{07}Low", card: .one, rssi: -50, lastSeen: .zero),
            TableRow(name: "High\u{1B}[5m", card: .forty, rssi: -50, lastSeen: .zero),
        ]
        let table = LiveTable(sections: [TableSection(channel: Channel(rawValue: 1), rows: rows)], adapter: "hci0")
        let footer = renderTable(table, color: false, size: TerminalSize(columns: 120, rows: 10)).last
        #expect(footer == " median 20.5 · mean 20.5 ≈ 20 · 40: High explains · 1: Low explains")
    }

    @Test func aHostileAdapterNameIsSanitised() {
        let table = LiveTable(sections: [TableSection(channel: Channel(rawValue: 1), rows: [])],
                              adapter: "hci0\u{1B}[2J")
        let header = renderTable(table, color: false, size: TerminalSize(columns: 80, rows: 10))[0]
        #expect(header.hasSuffix(" hci0"))
        #expect(!header.unicodeScalars.contains(where: isControl))
    }

    private func render(names: [String], color: Bool, size: TerminalSize = TerminalSize(columns: 80, rows: 24))
        -> [String]
    {
        let cards: [Card] = Deck.app.cards + [.question, .coffee, .waiting, .none]
        let rows = names.enumerated().map { i, name in
            TableRow(name: name, card: cards[i % cards.count], rssi: -50 - i * 10,
                     lastSeen: .milliseconds(i * 700), isMe: i == 0, isStale: i == 2)
        }
        let table = LiveTable(sections: [TableSection(channel: Channel(rawValue: 1), rows: rows)], adapter: "hci0")
        return renderTable(table, color: color, size: size)
    }
}

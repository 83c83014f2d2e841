// Live-table redraw cost: a table of 100 peers where one
// card changes per update, drawn the way `watch` draws it (render the
// frame, send only the changed lines), against the naive way measured in
// the same run (render the frame, clear the screen, send every line).
// Output goes to /dev/null so the system call is counted, not a terminal.
import EstimatorKit
import Rendering

#if canImport(Glibc)
    import Glibc
#endif

let peers = 100
let updatesPerRound = 2000
let rounds = 7
let size = TerminalSize(columns: 100, rows: 110)
let names = ["전수열", "Alice", "Bob", "東京タワー", "👍🏽 Dana", "Émile", "Zoë", "Ψυχή", "Ngozi", "محمد"]

/// The app's 13 cards, as a room of its users picks them.
let cards = Deck.app.cards + [.question, .coffee]

var rows = (0..<peers).map { i in
    let name = "\(names[i % names.count]) \(i)"
    let mark = Tally.Mark.shown(cards[i % cards.count])
    let seen = Duration.milliseconds(100 * (i % 90))
    return TableRow(name: name, mark: mark, rssi: -40 - i % 60, lastSeen: seen, isMe: i == 0, isStale: i % 17 == 0)
}
let tally = Tally.revealed(rows.map { row in
    guard case let .shown(card) = row.mark else { return (row.name, Card.waiting) }
    return (row.name, card)
})
var renderer = TableRenderer(color: true)
let sink = open("/dev/null", O_WRONLY)
precondition(sink >= 0, "cannot open /dev/null")

@MainActor func frame() -> [String] {
    renderer.lines(LiveTable(sections: [TableSection(channel: Channel(rawValue: 1), rows: rows, tally: tally)], adapter: "hci0"), size: size)
}

@MainActor func send(_ text: String) -> Int {
    var text = text
    return text.withUTF8 { write(sink, $0.baseAddress, $0.count) }
}

/// Whether every row's age moves on with each update, as it does when
/// `watch` redraws while time passes (the SEEN column changes).
var agesTick = false

/// The next update: peer `n % peers` picks another card.
@MainActor func change(_ n: Int) {
    let i = n % peers
    rows[i].mark = .shown(cards[(n / peers + i + 1) % cards.count])
    if agesTick {
        for j in rows.indices { rows[j].lastSeen = .milliseconds(100 * ((n + j) % 90)) }
    }
}

struct Result {
    var nanosecondsPerFrame: Double
    var bytesPerFrame: Double
}

@MainActor func measure(_ draw: () -> Int) -> Result {
    var bytes = 0
    let clock = ContinuousClock()
    let start = clock.now
    for n in 0..<updatesPerRound {
        change(n)
        bytes += draw()
    }
    let elapsed = clock.now - start
    let (s, atto) = elapsed.components
    let ns = Double(s) * 1e9 + Double(atto) / 1e9
    return Result(nanosecondsPerFrame: ns / Double(updatesPerRound), bytesPerFrame: Double(bytes) / Double(updatesPerRound))
}

var differ = ScreenDiffer()
_ = send(differ.update(to: frame(), size: size))
let ours = { send(differ.update(to: frame(), size: size)) }
let full = { send("\u{1B}[H\u{1B}[2J" + frame().joined(separator: "\r\n")) }

// Warm up both, then alternate rounds so machine noise hits both alike.
_ = measure(ours)
_ = measure(full)
var ourResults: [Result] = []
var fullResults: [Result] = []
for _ in 0..<rounds {
    ourResults.append(measure(ours))
    fullResults.append(measure(full))
}

// The same with ages ticking: most lines change, so most are rewritten.
agesTick = true
let ticking = measure(ours)

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let ourTime = median(ourResults.map(\.nanosecondsPerFrame))
let fullTime = median(fullResults.map(\.nanosecondsPerFrame))
let ourBytes = median(ourResults.map(\.bytesPerFrame))
let fullBytes = median(fullResults.map(\.bytesPerFrame))

func fixed(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int(value * scale + 0.5)
    let whole = String(scaled / Int(scale))
    guard decimals > 0 else { return whole }
    let fraction = String(scaled % Int(scale))
    return whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

print("table-bench: \(peers) peers, one card changed per update, \(rounds) rounds of \(updatesPerRound) updates")
print("  redraw (changed lines only)  \(fixed(ourTime / 1000, 1)) µs/frame  \(fixed(ourBytes, 0)) bytes/update")
print("  full redraw (clear + all)    \(fixed(fullTime / 1000, 1)) µs/frame  \(fixed(fullBytes, 0)) bytes/update")
print("  redraw, every age ticking   \(fixed(ticking.nanosecondsPerFrame / 1000, 1)) µs/frame  \(fixed(ticking.bytesPerFrame, 0)) bytes/update")
print("RATIO table-redraw-vs-full-bytes \(fixed(ourBytes / fullBytes, 4))")
print("RATIO table-redraw-vs-full-time \(fixed(ourTime / fullTime, 3))")
print("table-redraw-us-per-frame \(fixed(ourTime / 1000, 1)) (target ≤ 1000)")

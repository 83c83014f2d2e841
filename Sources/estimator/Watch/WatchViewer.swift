import EstimatorKit
import Glibc

/// What `watch` shows, fed by a session's stream: its own peer table (so
/// stale times are measured here), my row, and one of three outputs: the
/// live table on a terminal, a line per change on a pipe, or `--json`.
struct WatchViewer {
    enum Output { case table, lines, json }

    /// The channel asked for; nil shows the session's.
    let channel: Channel?
    let output: Output
    private var table: PeerTable
    private var me: (channel: Channel, name: String, card: Card, adapter: String)?
    private var screen = TerminalScreen()
    private var dirty = true
    private var lastDraw = Timestamp(nanosecondsSince1970: 0)
    private let clock = SystemClock()

    init(channel: Channel?, json: Bool, staleAfter: Duration) {
        self.channel = channel
        output = json ? .json : (isatty(1) == 1 ? .table : .lines)
        table = PeerTable(staleAfter: staleAfter)
    }

    /// Follows the session until it ends or the user presses Ctrl-C.
    mutating func follow(_ client: ControlClient) async throws(UserError) {
        let inputs = WatchInputs(client: client, tick: output == .table ? .milliseconds(100) : .milliseconds(500))
        if output == .table { screen.enter() }
        defer { if output == .table { screen.leave() } }
        for await input in inputs.stream {
            switch input {
            case let .line(bytes):
                guard let line = try? ControlWatchLine(parsing: bytes) else {
                    throw UserError(.software, ControlReplyError().description)
                }
                if case let .ended(reason) = line {
                    screen.leaveIfNeeded(output == .table)
                    StandardError.write("The session ended: \(reason).")
                    return
                }
                apply(line)
            case .tick: report(table.tick(now: clock.now))
            case .resize: dirty = true
            case .interrupted: return
            case .closed:
                screen.leaveIfNeeded(output == .table)
                throw UserError(.unavailable, "The session stopped answering; run `estimator status`.")
            }
            if output == .table, dirty || clock.now - lastDraw >= .milliseconds(500) { draw() }
        }
    }

    private var shownChannel: Channel? { channel ?? me?.channel }

    private mutating func apply(_ line: ControlWatchLine) {
        switch line {
        case let .me(channel, name, card, adapter):
            me = (Channel(rawValue: channel), name, card, adapter)
            dirty = true
        case let .heard(bytes, rssi):
            guard let packet = try? Packet(decoding: bytes) else { return }
            report(table.observe(PeerSighting(channel: packet.channel, name: packet.name, card: packet.card,
                                              rssi: rssi, time: clock.now)))
        case let .radio(state):
            if output == .lines {
                print("radio: \(TerminalText.sanitize(state))")
                fflush(nil)
            }
            dirty = true
        case .ended: break
        }
    }

    private mutating func report(_ events: [PeerEvent]) {
        let shown = events.filter { $0.channel == shownChannel && $0.name != me?.name }
        guard !shown.isEmpty else { return }
        dirty = true
        switch output {
        case .json: for event in shown { print(WatchEventJSON.line(event)) }
        case .lines: for event in shown { print(ChangeLine.line(event)) }
        case .table: break
        }
        if output != .table { fflush(nil) }  // a pipe is block-buffered; each change goes out now
    }

    private mutating func draw() {
        let now = clock.now
        var sections: [TableSection] = []
        if let channel = shownChannel {
            let mine = me.flatMap { $0.channel == channel ? (name: $0.name, card: $0.card) : nil }
            sections.append(TableSection(channel: channel, peers: table.peers(in: channel), me: mine,
                                         unshown: table.unshownCount(in: channel), now: now))
        }
        screen.draw(LiveTable(sections: sections, adapter: me?.adapter ?? ""))
        dirty = false
        lastDraw = now
    }
}

import EstimatorKit
import Glibc
import Rendering

/// What `watch` shows, fed by a session's stream or its own scan: its own
/// peer table (so stale times are measured here), my row when attached, and
/// one of three outputs: the live table on a terminal, a line per change on
/// a pipe, or `--json`.
struct WatchViewer {
    enum Output { case table, lines, json }

    /// The channel asked for; nil shows the session's, or every channel
    /// (grouped) when there is no session.
    let channel: Channel?
    let output: Output
    private let everyChannel: Bool
    private var adapter: String
    private var table: PeerTable
    private var me: (channel: Channel, name: String, card: Card, adapter: String)?
    private var screen = TerminalScreen()
    private var dirty = true
    private var lastDraw = Timestamp(nanosecondsSince1970: 0)
    private let clock = SystemClock()

    /// A viewer of channel `channel`; `attached` says whether a session feeds
    /// it (then no channel means the session's), `adapter` names the scanner.
    init(channel: Channel?, attached: Bool, adapter: String, json: Bool, staleAfter: Duration) {
        self.channel = channel
        everyChannel = channel == nil && !attached
        self.adapter = adapter
        output = json ? .json : (isatty(1) == 1 ? .table : .lines)
        table = PeerTable(staleAfter: staleAfter)
    }

    /// Follows `feed` until it ends or the user presses Ctrl-C.
    mutating func follow(_ feed: any WatchFeed) async throws(UserError) {
        let inputs = WatchInputs(feed: feed, tick: output == .table ? .milliseconds(100) : .milliseconds(500))
        if output == .table { screen.enter() }
        let outcome = await run(inputs)
        screen.leaveIfNeeded(output == .table)
        await inputs.stop()
        try outcome.get()
    }

    private mutating func run(_ inputs: WatchInputs) async -> Result<Void, UserError> {
        for await input in inputs.stream {
            switch input {
            case .line(.ended(let reason)):
                screen.leaveIfNeeded(output == .table)
                StandardError.write("The session ended: \(reason).")
                return .success(())
            case let .line(line): apply(line)
            case .malformed: return .failure(UserError(.software, ControlReplyError().description))
            case let .ended(error): return .failure(error)
            case .tick: report(table.tick(now: clock.now))
            case .resize: dirty = true
            case .interrupted: return .success(())
            }
            if output == .table, dirty || clock.now - lastDraw >= .milliseconds(500) { draw() }
        }
        return .success(())
    }

    /// The channels shown: the one asked for, the session's, or all heard.
    private func shows(_ shown: Channel) -> Bool {
        everyChannel || shown == (channel ?? me?.channel)
    }

    private mutating func apply(_ line: ControlWatchLine) {
        switch line {
        case let .me(channel, name, card, adapter):
            me = (Channel(rawValue: channel), name, card, adapter)
            self.adapter = adapter
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
        let shown = events.filter { shows($0.channel) && !($0.channel == me?.channel && $0.name == me?.name) }
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
        let channels = everyChannel ? table.channels : [channel ?? me?.channel].compactMap { $0 }
        let sections = channels.map { channel in
            let mine = me.flatMap { $0.channel == channel ? (name: $0.name, card: $0.card) : nil }
            return TableSection(channel: channel, peers: table.peers(in: channel), me: mine,
                                unshown: table.unshownCount(in: channel), now: now)
        }
        screen.draw(LiveTable(sections: sections, adapter: adapter))
        dirty = false
        lastDraw = now
    }
}

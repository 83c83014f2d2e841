import EstimatorKit
import Glibc
import Rendering

/// What `watch` shows, fed by a session's stream or its own scan: its own
/// peer table (so stale times are measured here), each channel's round and
/// votes, my row when attached, and one of three outputs: the live table on
/// a terminal, a line per change on a pipe, or `--json`.
struct WatchViewer {
    enum Output { case table, lines, json }

    /// The channel asked for; nil shows the session's, or every channel
    /// (grouped) when there is no session.
    let channel: Channel?
    let output: Output
    /// Show cards at once instead of at the reveal.
    let open: Bool
    private let everyChannel: Bool
    private let attached: Bool
    private var adapter: String
    private var table: PeerTable
    private var rounds: [Channel: ChannelRound] = [:]
    /// When each peer was last heard over the air and through the relay.
    private var paths: [PeerID: HeardPaths] = [:]
    private var me: Me?
    private var screen = TerminalScreen()
    private var dirty = true
    private var lastDraw = Timestamp(nanosecondsSince1970: 0)
    private var lastFrame: LiveTable?
    private let clock = SystemClock()
    /// Lines in ASCII only: the locale is not UTF-8.
    private let ascii = TerminalKind.ascii

    /// The session I am attached to, as its `me` lines say.
    private struct Me {
        var channel: Channel
        var name: String
        var card: Card
        var round: RoundNumber?
        var title: String?
        var nameTaken: Bool
    }

    /// A viewer of channel `channel`; `attached` says whether a session feeds
    /// it (then no channel means the session's), `adapter` names the scanner.
    init(channel: Channel?, attached: Bool, adapter: String, json: Bool, open: Bool, staleAfter: Duration) {
        self.channel = channel
        self.attached = attached
        everyChannel = channel == nil && !attached
        self.adapter = adapter
        self.open = open
        output = json ? .json : (TerminalKind.drawsTables ? .table : .lines)
        table = PeerTable(staleAfter: staleAfter)
    }

    /// Follows `feed` until it ends, the user presses Ctrl-C or q, or, with
    /// `once`, until the first table is printed. A table on the terminal
    /// stays on the normal screen when the watch ends.
    mutating func follow(_ feed: any WatchFeed, once: Duration? = nil) async throws(UserError) {
        let live = output == .table && once == nil
        let inputs = WatchInputs(feed: feed, tick: output == .table ? .milliseconds(100) : .milliseconds(500),
                                 keys: live, deadline: once)
        if live { screen.enter() }
        let outcome = await run(inputs, live: live)
        if live { screen.leave() }
        if output == .table, let frame = lastFrame ?? (once != nil ? frame(now: clock.now) : nil) {
            screen.print(frame)
        }
        await inputs.stop()
        try outcome.get()
    }

    private mutating func run(_ inputs: WatchInputs, live: Bool) async -> Result<Void, UserError> {
        for await input in inputs.stream {
            switch input {
            case .line(.ended(let reason)):
                if live { screen.leave() }
                if let frame = lastFrame { screen.print(frame); lastFrame = nil }
                StandardError.write("The session ended: \(reason).")
                return .success(())
            case let .line(line): apply(line)
            case .malformed: return .failure(UserError(.software, ControlReplyError().description))
            case let .ended(error): return .failure(error)
            case .tick:
                tick()
                if let longest = longestAirQuiet { inputs.quiet(for: longest) }
            case .resize: dirty = true
            case .interrupted: return .success(())
            case .deadline:
                lastFrame = frame(now: clock.now)
                return .success(())
            }
            if live, dirty || clock.now - lastDraw >= .milliseconds(500) { draw() }
        }
        return .success(())
    }

    /// The channels shown: the one asked for, the session's, or all heard.
    private func shows(_ shown: Channel) -> Bool {
        everyChannel || shown == (channel ?? me?.channel)
    }

    private var shownChannels: [Channel] {
        everyChannel ? table.channels : [channel ?? me?.channel].compactMap { $0 }
    }

    private mutating func apply(_ line: ControlWatchLine) {
        switch line {
        case let .me(channel, name, card, adapter, round, title, nameTaken):
            let channel = Channel(rawValue: channel)
            if me?.channel != channel { rounds[channel] = nil }
            if nameTaken, me?.nameTaken != true, output == .lines {
                print(TerminalText.sanitize(Self.nameTakenNotice(name)))
            }
            me = Me(channel: channel, name: name, card: card, round: round, title: title, nameTaken: nameTaken)
            self.adapter = adapter
            dirty = true
            if shows(channel), let change = rounds[channel, default: ChannelRound(listeningFrom: clock.now)].follow(round, peers: peers(in: channel), now: clock.now) {
                announce(change, in: channel, time: clock.now)
            }
            if shows(channel) { recount(channel, time: clock.now) }
            if output != .table { fflush(nil) }
        case let .heard(bytes, rssi, relayed):
            guard let packet = try? Packet(decoding: bytes) else { return }
            let now = clock.now
            let id = PeerID(channel: packet.channel, name: packet.name)
            // Noted first, so that a leave says the way it came.
            paths[id, default: HeardPaths()].heard(relayed: relayed, at: now)
            take(table.observe(PeerSighting(packet, rssi: rssi, time: now)))
            // Not in the table (a leave, or beyond the channel's cap): forgotten.
            if table[id] == nil { paths[id] = nil }
        case let .radio(state):
            if output == .lines {
                let line = "radio: \(TerminalText.sanitize(state))"
                print(ascii ? ASCIIFallback.fold(line) : line)
                fflush(nil)
            }
            dirty = true
        case .ended: break
        }
    }

    private mutating func tick() {
        let now = clock.now
        for channel in shownChannels {
            if let change = rounds[channel]?.tick(now: now) { announce(change, in: channel, time: now) }
        }
        take(table.tick(now: now))
        // The end of listening can reveal with nothing heard just then.
        for channel in shownChannels where rounds[channel] != nil { recount(channel, time: now) }
        if output != .table { fflush(nil) }
    }

    /// How long the quietest peer heard over the air, and not yet stale,
    /// has gone unheard; nil when there is none.
    private var longestAirQuiet: Duration? {
        let now = clock.now, window = table.staleAfter
        return paths.values.compactMap { $0.airQuiet(now: now, window: window) }.max()
    }

    /// The peers of `channel`, my own echo left out.
    private func peers(in channel: Channel) -> [Peer] {
        table.peers(in: channel).filter { !($0.channel == me?.channel && $0.name == me?.name) }
    }

    /// Takes the peer table's changes: each shown channel's round follows
    /// them, then they are reported with what the round lets show.
    private mutating func take(_ events: [PeerEvent]) {
        // Read before a leaving peer's paths are forgotten.
        let heard = Dictionary(events.map { ($0.id, hearing(of: $0.id)) }, uniquingKeysWith: { first, _ in first })
        for event in events where event.kind == .left { paths[event.id] = nil }
        let shown = events.filter { shows($0.channel) && !($0.channel == me?.channel && $0.name == me?.name) }
        guard !shown.isEmpty else { return }
        dirty = true
        for channel in Set(shown.map(\.channel)).sorted() {
            let here = shown.filter { $0.channel == channel }
            let time = here[0].time
            if let change = rounds[channel, default: ChannelRound(listeningFrom: clock.now)].observe(here, peers: peers(in: channel)) {
                announce(change, in: channel, time: time)
            }
            // The events are reported as they were before any reveal they
            // cause: a last vote is a vote, then the reveal shows every card.
            let hides = !open && rounds[channel]?.ballot.isRevealed != true
            let tally = recount(channel, time: nil)
            for event in here { report(event, tally: tally, hiding: hides, heard: heard[event.id] ?? .air) }
            if hides, tally.isRevealed { emit(.revealed(channel: channel, tally: tally, time: time)) }
        }
        if output != .table { fflush(nil) }  // a pipe is block-buffered; each change goes out now
    }

    /// Counts a channel's votes; with `time`, reports a reveal that happens
    /// in this count.
    @discardableResult
    private mutating func recount(_ channel: Channel, time: Timestamp?) -> Tally {
        let before = rounds[channel]?.ballot.isRevealed == true
        let mine = me.flatMap { $0.channel == channel ? (name: $0.name, card: $0.card) : nil }
        let tally = rounds[channel, default: ChannelRound(listeningFrom: clock.now)].count(peers: peers(in: channel), me: mine, open: open, now: clock.now)
        if let time, !before, tally.isRevealed { emit(.revealed(channel: channel, tally: tally, time: time)) }
        return tally
    }

    private mutating func announce(_ change: RoundState.Change, in channel: Channel, time: Timestamp) {
        guard case let .began(round) = change else { return }
        dirty = true
        let title = me.flatMap { $0.channel == channel && $0.round == round ? $0.title : nil }
        emit(.round(channel: channel, round: round, title: title, time: time))
    }

    private func report(_ event: PeerEvent, tally: Tally, hiding: Bool, heard: Hearing) {
        var mark = tally.entries.first { !$0.isMe && $0.name == event.name }?.mark ?? .shown(event.card)
        if event.kind == .left { mark = .shown(event.card) } else if hiding, case .shown = mark { mark = .hidden }
        emit(.peer(event, mark: mark, round: tally.round, heard: heard))
    }

    /// How a peer is heard now, as the stream's lines said.
    private func hearing(of id: PeerID) -> Hearing {
        paths[id]?.hearing(now: clock.now, window: table.staleAfter) ?? .air
    }

    private func emit(_ change: WatchChange) {
        switch output {
        case .json: print(WatchEventJSON.line(change))
        case .lines: print(ascii ? ASCIIFallback.fold(ChangeLine.line(change)) : ChangeLine.line(change))
        case .table: break
        }
    }

    private mutating func draw() {
        let frame = frame(now: clock.now)
        screen.draw(frame)
        lastFrame = frame
        dirty = false
        lastDraw = clock.now
    }

    private mutating func frame(now: Timestamp) -> LiveTable {
        let sections = shownChannels.map { channel in
            let tally = recount(channel, time: nil)
            let title = me.flatMap { $0.channel == channel && $0.round == tally.round ? $0.title : nil }
            var hearing: [String: Hearing] = [:]
            for id in paths.keys where id.channel == channel { hearing[id.name] = self.hearing(of: id) }
            return TableSection(channel: channel, title: title, peers: peers(in: channel), tally: tally,
                                unshown: table.unshownCount(in: channel), hearing: hearing, now: now)
        }
        let notice = me.flatMap { $0.nameTaken ? Self.nameTakenNotice($0.name) : nil }
        return LiveTable(sections: sections, adapter: adapter, isObserving: !attached, notice: notice)
    }

    /// Said when someone else here has my name: we are one row, so they are
    /// not shown.
    static func nameTakenNotice(_ name: String) -> String {
        "Someone else here is also called \(name) and is hidden behind your row: `estimator join --name` another name."
    }
}

import Clocks
import EstimatorKit
import Glibc
import Rendering
import SessionDaemon

/// What `watch` shows, fed by a session's stream or by its own scan's
/// listening room (`ListeningRoom`): each channel's table as it was decided
/// there, the changes decided there, my session's facts (`me`), and one of
/// three outputs: the live table (or the board, `--board`) on a terminal,
/// a line per change on a pipe, or `--json`. It keeps no room and decides
/// nothing: between two tables it only moves a row's signal and age on
/// (`seen`). On a terminal the bell rings when a round's cards are
/// revealed.
package struct WatchViewer {
    /// How long `watch --once` listens before it prints the table and
    /// exits: a session's catch-up comes at once, and a watch without one
    /// hears everyone near at least once (each announces every 1.5 s).
    package static let onceListening: Duration = .seconds(2)

    /// What the viewer writes: the live table, a line per change, or JSON lines.
    package enum Output { case table, lines, json }

    /// What a terminal shows: the table, or the board.
    package enum Frame {
        case table(LiveTable)
        case board(Board)
    }

    /// My session, as its `me` lines say.
    private struct Me {
        var channel: Channel
        var name: String
        /// Whether someone else has my session's name.
        var nameTaken: Bool
        /// Since when my session's relay has been down.
        var relayDownSince: Timestamp?
        /// Since when my session's history is not saved.
        var unsavedSince: Timestamp?
    }

    /// A channel's table as last told, with when each row's person was
    /// last heard on this clock (nil for my own row).
    private struct Drawn {
        var table: WatchTable
        var lastHeard: [Timestamp?]
    }

    /// The channel asked for; nil shows the session's, or every channel
    /// (grouped) when there is no session.
    let channel: Channel?
    let output: Output
    private let everyChannel: Bool
    private let attached: Bool
    private var adapter: String
    private var me: Me?
    private var drawn: [Channel: Drawn] = [:]
    private var screen = TerminalScreen()
    private var dirty = true
    private var lastDraw = Timestamp(nanosecondsSince1970: 0)
    private var lastFrame: Frame?
    /// Whether the terminal shows the board rather than the table.
    private let showsBoard: Bool
    /// Rings the terminal's bell; nil when quiet.
    private let ring: (() -> Void)?
    private var bell = RevealBell()
    private let clock: any SessionClock
    /// Where change lines and JSON go, one line at a time.
    private let write: (String) -> Void
    /// Lines in ASCII only: the locale is not UTF-8.
    private let ascii = TerminalKind.ascii

    /// A viewer of channel `channel`; `attached` says whether a session feeds
    /// it (then no channel means the session's), `adapter` names the scanner.
    /// `output` forces an output (else the terminal decides); `write` takes
    /// each line of the lines and JSON outputs. `board`: the terminal shows
    /// the board of one channel. `ring` rings the bell on a terminal when a
    /// round's cards are revealed; nil for quiet.
    package init(channel: Channel?, attached: Bool, adapter: String, json: Bool, output: Output? = nil, board: Bool = false,
                 ring: (() -> Void)? = nil, clock: any SessionClock = SystemClock(),
                 write: @escaping (String) -> Void = { print($0) }) {
        self.channel = channel
        self.attached = attached
        everyChannel = channel == nil && !attached
        self.adapter = adapter
        self.output = output ?? (json ? .json : (TerminalKind.drawsTables ? .table : .lines))
        showsBoard = board
        self.ring = ring
        self.clock = clock
        self.write = write
    }

    /// Follows `feed` until it ends, the user presses Ctrl-C or q, or, with
    /// `once`, until the first table is printed. A table on the terminal
    /// stays on the normal screen when the watch ends.
    package mutating func follow(_ feed: any WatchFeed, once: Duration? = nil) async throws(UserError) {
        let live = output == .table && once == nil
        let inputs = WatchInputs(feed: feed, tick: live ? .milliseconds(100) : nil, keys: live, deadline: once)
        if live { screen.enter() }
        let outcome = await run(inputs, live: live)
        if live { screen.leave() }
        if output == .table, let frame = lastFrame ?? (once != nil ? screenFrame(now: clock.now) : nil) {
            show(frame)
        }
        await inputs.stop()
        try outcome.get()
    }

    private mutating func run(_ inputs: WatchInputs, live: Bool) async -> Result<Void, UserError> {
        for await input in inputs.stream {
            switch input {
            case .line(.ended(let reason)):
                if live { screen.leave() }
                if let frame = lastFrame {
                    show(frame)
                    lastFrame = nil
                }
                StandardError.write("The session ended: \(reason).")
                return .success(())
            case let .line(line): apply(line)
            case .malformed: return .failure(UserError(.software, ControlReplyError().description))
            case let .ended(error): return .failure(error)
            case .tick: break
            case .resize: dirty = true
            case .interrupted: return .success(())
            case .deadline:
                lastFrame = screenFrame(now: clock.now)
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
        everyChannel ? drawn.keys.sorted() : [channel ?? me?.channel].compactMap { $0 }
    }

    /// Takes one line of the feed.
    package mutating func apply(_ line: ControlWatchLine) {
        let now = clock.now
        switch line {
        case let .me(channel, name, adapter, nameTaken, _, _, relayDownSince, unsavedSince):
            if nameTaken, me?.nameTaken != true, output == .lines {
                write(TerminalText.sanitize(Self.nameTakenNotice(name)))
            }
            me = Me(channel: Channel(rawValue: channel), name: name, nameTaken: nameTaken, relayDownSince: relayDownSince,
                    unsavedSince: unsavedSince)
            self.adapter = adapter
            dirty = true
        case let .table(table):
            drawn[table.channel] = Drawn(table: table, lastHeard: zip(table.tally.entries, table.signals).map { entry, signal in
                entry.isMe ? nil : now - signal.age
            })
            guard shows(table.channel) else { break }
            dirty = true
            let tally = table.tally
            if output == .table, let ring,
               bell.rings(channel: table.channel, round: tally.round, decided: table.isDecided, shown: tally.isRevealed) {
                ring()
            }
        case let .seen(sighting):
            // A signal is no change to redraw at once: the table shows it
            // with the ages, at the next half-second redraw.
            let channel = sighting.id.channel
            guard let row = drawn[channel]?.table.tally.entries.firstIndex(where: { !$0.isMe && $0.id(in: channel) == sighting.id })
            else { break }
            drawn[channel]?.lastHeard[row] = now
            drawn[channel]?.table.signals[row] = WatchTable.Signal(rssi: sighting.rssi, age: .zero, heard: sighting.heard)
        case let .change(json, text):
            guard let channel = json["channel"]?.integer.flatMap(UInt8.init(exactly:)), shows(Channel(rawValue: channel))
            else { break }
            switch output {
            case .json: write(json.text)
            case .lines:
                let line = TerminalText.sanitize(text)
                write(ascii ? ASCIIFallback.fold(line) : line)
            case .table: break
            }
        case let .radio(state):
            if output == .lines {
                let line = "radio: \(TerminalText.sanitize(state))"
                write(ascii ? ASCIIFallback.fold(line) : line)
            }
            dirty = true
        case .heard, .ended: break
        }
        if output != .table { fflush(nil) }  // a pipe is block-buffered; each change goes out now
    }

    private func emit(_ change: WatchChange) {
        switch output {
        case .json: write(WatchEventJSON.line(change))
        case .lines: write(ascii ? ASCIIFallback.fold(ChangeLine.line(change)) : ChangeLine.line(change))
        case .table: break
        }
    }

    private mutating func draw() {
        let frame = screenFrame(now: clock.now)
        switch frame {
        case let .table(table): screen.draw(table)
        case let .board(board): screen.draw(board)
        }
        lastFrame = frame
        dirty = false
        lastDraw = clock.now
    }

    /// Prints `frame` on the normal screen: what stays when the watch ends.
    private mutating func show(_ frame: Frame) {
        switch frame {
        case let .table(table): screen.print(table)
        case let .board(board): screen.print(board)
        }
    }

    /// What the terminal shows at `now`: the board, or the table.
    package func screenFrame(now: Timestamp) -> Frame {
        showsBoard ? .board(board(now: now)) : .table(frame(now: now))
    }

    /// The board of the channel shown (the one asked for, else the
    /// session's) as last told, with what is left of its round's timer.
    package func board(now: Timestamp) -> Board {
        let channel = channel ?? me?.channel ?? .default
        let table = drawn[channel]?.table
        var board = Board(channel: channel, title: table?.title, tally: table?.tally ?? Self.nobody, adapter: adapter,
                          isObserving: !attached)
        board.remaining = table?.remaining(now: now)
        board.story = table?.story.map { Board.Story(key: $0.key, summary: $0.summary.isEmpty ? nil : $0.summary) }
        board.agreed = table?.agreed
        let notices = [me?.relayDownSince.map(Self.relayDownNotice), me?.unsavedSince.map(Self.unsavedNotice)].compactMap { $0 }
        board.notice = notices.isEmpty ? nil : notices.joined(separator: "; ")
        return board
    }

    /// The table as last told, with ages at `now`.
    package func frame(now: Timestamp) -> LiveTable {
        let sections = shownChannels.map { section(of: $0, now: now) }
        let notices = [me?.relayDownSince.map(Self.relayDownNotice), me?.unsavedSince.map(Self.unsavedNotice),
                       me.flatMap { $0.nameTaken ? Self.nameTakenNotice($0.name) : nil }]
        let notice = notices.compactMap { $0 }.joined(separator: "; ")
        return LiveTable(sections: sections, adapter: adapter, isObserving: !attached, notice: notice.isEmpty ? nil : notice)
    }

    private func section(of channel: Channel, now: Timestamp) -> TableSection {
        guard let shown = drawn[channel] else { return TableSection(channel: channel, rows: [], tally: Self.nobody) }
        let table = shown.table
        let rows = table.tally.entries.indices.map { index in
            let (entry, signal) = (table.tally.entries[index], table.signals[index])
            return TableRow(name: entry.name, mark: entry.mark, rssi: signal.rssi,
                            lastSeen: shown.lastHeard[index].map { now - $0 } ?? .zero, isMe: entry.isMe,
                            isStale: entry.isStale, heard: signal.heard, isNameCut: entry.isNameCut, isApp: entry.isApp)
        }
        var section = TableSection(channel: channel, title: table.title, rows: rows, tally: table.tally, unshown: table.unshown,
                                   outOfRoom: table.outOfRoom)
        section.remaining = table.remaining(now: now)
        section.agreed = table.agreed
        return section
    }

    /// A channel nobody has been heard in yet.
    private static let nobody = Tally(entries: [], voters: 0, voted: 0, waitingFor: [], isRevealed: false, round: nil,
                                      stats: Stats(votes: []))

    /// Said while my session's relay is down: teammates reached through
    /// it hear nothing of it.
    package static func relayDownNotice(since: Timestamp) -> String { "relay down since \(LocalTime.clock(since))" }

    /// The footer's notice while the session's history is not saved
    /// (`estimator status` says why).
    package static func unsavedNotice(since: Timestamp) -> String { "history not saved since \(LocalTime.clock(since))" }

    /// Said when someone else here has my name: we are one row, so they are
    /// not shown.
    package static func nameTakenNotice(_ name: String) -> String {
        "Someone else here is also called \(name) and is hidden behind your row: `estimator join --name` another name."
    }
}

import Clocks
import EstimatorKit
import Glibc
import Rendering
import SessionDaemon

/// What `watch` shows, fed by a session's stream or its own scan: its own
/// peer table (so stale times are measured here), each channel's round and
/// votes, my row when attached, and one of three outputs: the live table
/// (or the board, `--board`) on a terminal, a line per change on a pipe, or
/// `--json`. On a terminal the bell rings when a round's cards are revealed.
package struct WatchViewer {
    /// What the viewer writes: the live table, a line per change, or JSON lines.
    package enum Output { case table, lines, json }

    /// What a terminal shows: the table, or the board.
    package enum Frame {
        case table(LiveTable)
        case board(Board)
    }

    /// The channel asked for; nil shows the session's, or every channel
    /// (grouped) when there is no session.
    let channel: Channel?
    let output: Output
    private let everyChannel: Bool
    private let attached: Bool
    private var adapter: String
    /// Everyone heard, each channel's round and votes, and me when attached.
    private var room: Room
    /// Whether someone else has my session's name, as its `me` lines say.
    private var nameTaken = false
    /// When my session's timer reveals its round, as its `me` lines say.
    private var revealsAt: Timestamp?
    /// My session's round's story and agreed estimate, as its `me` lines say.
    private var story: Story?
    private var agreed: Card?
    /// The channels whose cards are on the table, as last reported.
    private var revealed: Set<Channel> = []
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
    package init(channel: Channel?, attached: Bool, adapter: String, json: Bool, open: Bool, staleAfter: Duration,
         output: Output? = nil, board: Bool = false, ring: (() -> Void)? = nil, clock: any SessionClock = SystemClock(),
         write: @escaping (String) -> Void = { print($0) }) {
        self.channel = channel
        self.attached = attached
        everyChannel = channel == nil && !attached
        self.adapter = adapter
        self.output = output ?? (json ? .json : (TerminalKind.drawsTables ? .table : .lines))
        room = Room(staleAfter: staleAfter, open: open)
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
        let inputs = WatchInputs(feed: feed, tick: output == .table ? .milliseconds(100) : .milliseconds(500),
                                 keys: live, deadline: once)
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
            case .tick:
                tick()
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
        everyChannel || shown == (channel ?? room.me?.channel)
    }

    private var shownChannels: [Channel] {
        everyChannel ? room.table.channels : [channel ?? room.me?.channel].compactMap { $0 }
    }

    /// Takes one line of the feed.
    package mutating func apply(_ line: ControlWatchLine) {
        let now = clock.now
        switch line {
        case let .me(channel, name, card, adapter, round, title, nameTaken, revealed, observing, onAir, deck, revealsAt, story, agreed, _):
            let channel = Channel(rawValue: channel)
            if nameTaken, !self.nameTaken, output == .lines {
                write(TerminalText.sanitize(Self.nameTakenNotice(name)))
            }
            self.nameTaken = nameTaken
            self.revealsAt = revealsAt
            self.adapter = adapter
            dirty = true
            room.enter(Room.Me(channel: channel, name: name, card: card, observing: observing, deck: deck), now: now)
            take(room.follow(round: round, title: title, revealed: revealed, onAir: try? Packet(decoding: onAir),
                             in: channel, now: now), now: now)
            if let agreed, agreed != self.agreed {
                emit(.settled(channel: channel, round: round, story: story, agreed: agreed, time: now))
            }
            self.agreed = agreed
            self.story = story
        case let .heard(bytes, rssi, relayed, advertiser):
            guard let packet = try? Packet(decoding: bytes) else { return }
            take(room.hear(packet, rssi: rssi, relayed: relayed, from: advertiser, at: now), now: now)
        case let .radio(state):
            if output == .lines {
                let line = "radio: \(TerminalText.sanitize(state))"
                write(ascii ? ASCIIFallback.fold(line) : line)
            }
            dirty = true
        case .ended: break
        }
        if output != .table { fflush(nil) }  // a pipe is block-buffered; each change goes out now
    }

    /// Applies the passage of time: stale peers, the end of listening.
    package mutating func tick() {
        let now = clock.now
        take(room.tick(now: now), now: now, every: true)
        if output != .table { fflush(nil) }
    }

    /// Reports what the room says changed in the channels shown (each of
    /// them with `every`): new rounds, then each peer's change as it was
    /// before any reveal it brings (a last vote is a vote), then the reveal
    /// with every card.
    private mutating func take(_ update: Room.Update, now: Timestamp, every: Bool = false) {
        for round in update.rounds where shows(round.channel) {
            guard case let .began(number) = round.change else { continue }
            dirty = true
            let title = room.round(of: round.channel)?.state.title
            emit(.round(channel: round.channel, round: number, title: title, time: round.time))
        }
        let echo = room.me.map { PeerID(channel: $0.channel, name: $0.name) }
        let shown = update.events.filter { shows($0.channel) && $0.id != echo }
        var touched = Set(shown.map(\.channel)).union(update.revealed).union(update.rounds.map(\.channel))
        if every { touched.formUnion(shownChannels) }
        for channel in touched.filter(shows).sorted() {
            let tally = room.tally(of: channel, now: now)
            let before = revealed.contains(channel)
            for event in shown where event.channel == channel {
                report(event, tally: tally, hiding: !room.open && !before, heard: update.hearing[event.id] ?? .air)
            }
            if output == .table, let ring,
               bell.rings(channel: channel, round: tally.round, decided: room.round(of: channel)?.ballot.isRevealed ?? false,
                          shown: tally.isRevealed) {
                ring()
            }
            if !tally.isRevealed {
                revealed.remove(channel)
            } else if !before {
                revealed.insert(channel)
                emit(.revealed(channel: channel, tally: tally, time: now))
            }
            if !shown.isEmpty || tally.isRevealed != before { dirty = true }
        }
    }

    private func report(_ event: PeerEvent, tally: Tally, hiding: Bool, heard: Hearing) {
        // By who it is, not by name: two app users may both be `Al`.
        var mark = tally.entries.first { !$0.isMe && $0.id(in: event.channel) == event.id }?.mark ?? .shown(event.card)
        if event.kind == .left { mark = .shown(event.card) } else if hiding, case .shown = mark { mark = .hidden }
        emit(.peer(event, mark: mark, round: tally.round, heard: heard))
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
    /// session's) as the room stands at `now`, with what is left of my
    /// session's timer.
    package func board(now: Timestamp) -> Board {
        let channel = channel ?? room.me?.channel ?? .default
        let view = room.view(of: channel, now: now)
        var board = Board(view, adapter: adapter, isObserving: !attached,
                          remaining: remaining(in: channel, isRevealed: view.tally.isRevealed, now: now))
        if channel == room.me?.channel {
            board.story = story.map { Board.Story(key: $0.key, summary: $0.summary.isEmpty ? nil : $0.summary) }
            board.agreed = agreed
        }
        return board
    }

    /// The table as the room stands at `now`.
    package func frame(now: Timestamp) -> LiveTable {
        let sections = shownChannels.map { channel in
            var section = TableSection(room.view(of: channel, now: now), now: now)
            section.remaining = remaining(in: channel, isRevealed: section.isRevealed, now: now)
            if channel == room.me?.channel { section.agreed = agreed }
            return section
        }
        let notice = nameTaken ? room.me.map { Self.nameTakenNotice($0.name) } : nil
        return LiveTable(sections: sections, adapter: adapter, isObserving: !attached, notice: notice)
    }

    /// What is left of my session's timer, in my channel while its round is
    /// hidden.
    private func remaining(in channel: Channel, isRevealed: Bool, now: Timestamp) -> Duration? {
        guard let revealsAt, channel == room.me?.channel, !isRevealed else { return nil }
        return revealsAt - now
    }

    /// Said when someone else here has my name: we are one row, so they are
    /// not shown.
    package static func nameTakenNotice(_ name: String) -> String {
        "Someone else here is also called \(name) and is hidden behind your row: `estimator join --name` another name."
    }
}

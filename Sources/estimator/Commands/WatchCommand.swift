import ArgumentParser
import EstimatorKit
import SessionDaemon
import Watch

/// `estimator watch`: the live table.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show the round live: who has voted, then everyone's cards.",
        discussion: """
            Attaches to the running session (your row is marked) and shows the room \
            as the session decided it: who is stale, whose card shows, whether the \
            round is revealed (by the session's --stale, not the watch's). \
            Without a session it observes: it scans by itself, advertises nothing, and \
            decides by the same rules. Without --channel it shows the session's \
            channel, or every channel, grouped, when there is no session. A watch \
            started late, --once, a pipe and --json all start from the room as it \
            stands: everyone present, and after a reveal every card.

            Each row shows · (not voted yet), ✓ (voted, card hidden) or the card. The \
            cards are revealed together once everyone present has voted, and stay \
            revealed until the next round (`estimator round`). --open shows cards at \
            once, as the iOS app does, and is remembered (--no-open to go back).

            The signal column says how each person is heard: bars for the air, relay \
            for the relay alone (`join --relay`), bars and +r for both. One person is \
            one row however many ways they are heard. People heard only faintly (as \
            through a wall: see `join --range`) are not rows; the footer counts them \
            as nearby, out of the room.

            --board draws the round for a projector or a big screen instead of the \
            table: the story (the round's title), a large card for everyone present, \
            face down once voted, who is still to vote, the timer of `round --timer` \
            while it runs, and after the reveal the cards face up and a chart of the \
            votes with what they add up to. It fits any terminal from 80x24 up and is \
            laid out anew when the window changes size. It shows one channel: the \
            session's, or --channel (needed without a session).

            The terminal's bell rings once when a round's cards are revealed (not for \
            a round revealed before the watch started); --quiet turns it off and is \
            remembered, as `join --quiet` is (--no-quiet turns it on again).

            Ctrl-C or q ends the watch and leaves the last table on the screen. On a \
            pipe it prints a line per change; --json prints one JSON object per change \
            (events joined, card, voted, stale, back, left, revealed, round, story, \
            settled, timer with the deadline the table counts down to; a person's \
            events carry heard: air, relay or both, and each the round's story as the \
            room's meeting says); no event is printed twice. --once listens for 2 s and \
            exits: on a terminal it then prints the table (the board with --board) \
            once; on a pipe it prints a line per change meanwhile, starting from the \
            room as it stands (with --json, an object per change).

            Examples:
              $ estimator watch
              $ estimator watch --channel 0 --adapter hci1
              $ estimator watch --json | jq .
              $ estimator watch --once
              $ estimator watch --board           # on the projector
            """)

    // Unconditional, so `--channel -1` is judged as a channel, not taken for an option.
    @Option(parsing: .unconditional, help: "Only this channel, 0 to 255 (default: the session's, else all).")
    var channel: Channel?

    @Option(help: "The adapter whose session to watch, or to scan on, by name or address (default: the only session, else the remembered adapter, else the first powered one).")
    var adapter: AdapterChoice?

    @Flag(help: "One JSON object per line, one per change.")
    var json = false

    @Flag(inversion: .prefixedNo, help: "Show cards as soon as they are picked (remembered; default: hidden until everyone has voted).")
    var open: Bool?

    @Flag(help: "Listen for 2 s and exit: on a terminal print the table once, on a pipe the lines heard meanwhile.")
    var once = false

    @Flag(help: "Draw the board for a projector or a big screen: large cards, who is still to vote, the chart of the votes.")
    var board = false

    @Flag(inversion: .prefixedNo, help: "No bell when the cards are revealed (remembered; default: the bell rings).")
    var quiet: Bool?

    @Option(help: ArgumentHelp(SignalRange.help + ", without a session (default: the one join remembers, else room)."))
    var range: SignalRange?

    @OptionGroup var staleOption: StaleOption

    func validate() throws {
        guard !(board && json) else { throw ValidationError("--board draws on a terminal and --json writes lines for programs; give one.") }
    }

    func run() async throws {
        let stale = staleOption.value.seconds
        let shown = channel
        let remembered = try Config.load()
        var config = remembered
        config.openCards = open ?? remembered.openCards
        config.quiet = quiet ?? remembered.quiet
        if config != remembered { try config.save() }
        if open == true, remembered.openCards != true {
            StandardError.write("note: --open is remembered: tables show cards as soon as they are picked, and the sessions join starts from now on put your card on the air in clear, as the app does; `estimator config --reset open` goes back.")
        }
        let showsCards = config.openCards ?? false
        let ring: (() -> Void)? = config.quiet == true ? nil : { TerminalScreen.ringBell() }
        let listening: Duration? = once ? WatchViewer.onceListening : nil
        if let (sessionAdapter, client) = try await SessionLocator.find(adapter: adapter, timeout: 0) {
            let reply = try client.call(showsCards ? .watchOpen : .watch)
            guard reply.exitCode == 0 else { return try ControlReplyPrinter.print(reply) }
            if range != nil {
                StandardError.write("note: the session decides who is in the room; `estimator join --range` changes its range.")
            }
            var viewer = WatchViewer(channel: shown, attached: true, adapter: sessionAdapter, json: json, board: board, ring: ring)
            return try await viewer.follow(SessionFeed(client: client), once: listening)
        }
        guard !board || shown != nil else {
            throw UserError(.usage, "No session is running to say which channel the board shows; add --channel N.")
        }
        let feed = try await ScanFeed.open(adapter: adapter?.text ?? config.adapter, staleAfter: .seconds(stale),
                                           open: showsCards, range: range ?? config.range ?? .room)
        if !json, !once { StandardError.write("No session here: observing on \(feed.adapterName), advertising nothing.") }
        var viewer = WatchViewer(channel: shown, attached: false, adapter: feed.adapterName, json: json, board: board, ring: ring)
        try await viewer.follow(feed, once: listening)
    }
}

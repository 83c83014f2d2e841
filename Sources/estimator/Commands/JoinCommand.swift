import ArgumentParser
import BlueZ
import EstimatorKit
import Glibc
import RadioScheduling
import SessionDaemon
import Watch

/// `estimator join`: start my session, or switch the running one.
struct JoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a channel: advertise your card and scan for the others'.",
        discussion: """
            Starts a session in the background for the adapter and returns once BlueZ \
            has accepted the advertisement; problems (no bluetoothd, no adapter, \
            adapter off, no advertising slot) are reported here with the fix. If a \
            session is already running on the adapter, it switches channel and name \
            at once (without --channel it keeps its own); one that is leaving is \
            waited for, and a new one starts. Two joins at once start one session: \
            one join starts it, the other switches it, and both print the same \
            session pid. Channel, name and adapter \
            are remembered for next time in \
            $XDG_CONFIG_HOME/estimator/config.json; the first name is your account's \
            full name. The session's log is $XDG_STATE_HOME/estimator/<adapter>.log.

            Without --channel, and no channel remembered, join first finds a room, \
            which takes 9 s (up to 15 s while others choosing are first heard): it \
            listens for 6 s (up to 12 s), then joins the room a teammate found within \
            the last minute nearby, else the channel others choosing with it agree on, \
            else a channel nobody near uses, and for 3 s more moves on to a room being \
            set up nearby with more people, before it answers; a channel in use is never joined by chance, and \
            channel 0, the Estimator app's, only with --channel 0. Teammates who type \
            `estimator join` within a minute land in the same room; later ones type \
            its number. A room found is remembered as a typed channel is.

            Examples:
              $ estimator join --name 전수열
              joined room 37 as 전수열 on hci0 (session pid 4242); others join with: estimator join --channel 37

              $ estimator join --channel 1 --name 전수열
              joined channel 1 as 전수열 on hci0 (session pid 4242)

              $ estimator join --channel 2        # switch the running session
              $ estimator join --foreground       # table and keyboard in this terminal
              $ estimator join --quiet            # no bell when the cards are revealed
              $ estimator join --observer         # run the meeting without a vote
              $ estimator join --deck fibonacci   # pick from 0 1 2 3 5 8 13 21 34 55 89
              $ estimator join --deck 1,2,4,8     # a deck of your own
              $ estimator join --range hall       # an open floor: count people further off
              $ estimator join --relay mqtts://broker.example:8883/team --relay-user ann
              $ estimator join --adapter none     # a remote teammate: the relay alone

            With --relay the session also meets the room through an MQTT broker: it \
            publishes your packet, forwards the people it hears over the air, and shows \
            everyone the broker has. The password comes from ESTIMATOR_RELAY_PASSWORD or \
            --relay-password-file (mode 0600), never from the command line or the config; \
            TLS is verified against the system's CAs or --relay-ca. A refused login or an \
            untrusted certificate exits 77.

            A deck (--deck) decides the cards you may pick and the card the mean is \
            rounded to: app (the Estimator app's deck, the default: 0 ½ 1 2 3 5 8 13 20 \
            40 100), fibonacci (0 1 2 3 5 8 13 21 34 55 89), powers (0 1 2 4 8 16 32 \
            64), tshirt (XS S M L XL XXL), or integers from 0 to 126 separated by \
            commas; ? and coffee are in every deck. Tables show every card they hear, \
            whatever deck the sender uses; the Estimator app shows only its own cards.

            Only people heard clearly for a second are in the room (--range): the \
            table lists them, and they count in rounds and reveals. People heard \
            faintly, as through a wall, are nearby, out of the room: the table's \
            footer counts them. Someone found is kept until heard below the range \
            for 20 s, so a teammate at the far end of the room does not flicker. A \
            radio that gives no signal strength, and the relay, count everyone heard. \
            On a running session --range applies at once.

            The terminal's bell rings once when a round's cards are revealed, with \
            --foreground and in the watch; --quiet turns it off for both (remembered; \
            --no-quiet turns it on again).
            """)

    // Unconditional, so `--channel -1` is judged as a channel, not taken for an option.
    @Option(parsing: .unconditional, help: "The channel, 0 to 255 (default: the last one, else a room found nearby; 0 is the Estimator app's).")
    var channel: Channel?

    @Option(parsing: .unconditional, help: "Your name as others see it; a longer one is cut to the 12 bytes sent (default: the last one, else your account's name).")
    var name: TypedText?

    @Option(help: "The Bluetooth adapter, by name (hci1) or address, or none for the relay alone (default: the last one, else the first powered one).")
    var adapter: AdapterChoice?

    @OptionGroup var relayOptions: RelayOptionGroup

    @Flag(help: "Run the session in this terminal: live table, pick with the keyboard.")
    var foreground = false

    @Flag(help: "Your part in the round (remembered; default: voter).")
    var role: JoinRole?

    @Option(help: "The cards you pick from: app, fibonacci, powers, tshirt, or integers such as 1,2,4,8 (remembered; default: app).")
    var deck: Deck?

    @Flag(inversion: .prefixedNo, help: "No bell when the cards are revealed, in --foreground and watch (remembered; default: the bell rings).")
    var quiet: Bool?

    @Option(help: ArgumentHelp(SignalRange.help + " (remembered; default: room)."))
    var range: SignalRange?

    @OptionGroup var staleOption: StaleOption

    func run() async throws {
        let remembered = try Config.load()
        let typedAdapter: String?
        if let adapter { typedAdapter = try await adapter.resolved() } else { typedAdapter = nil }
        let settings = try await JoinSettings(
            channel: channel, name: name?.text, adapter: typedAdapter, observing: role.map { $0 == .observer }, deck: deck,
            quiet: quiet, range: range, remembered: remembered,
            fallbackAdapter: await Self.firstPoweredAdapter(),
            relay: relayOptions.typed)
        for warning in settings.warnings { StandardError.write("Warning: \(warning)") }

        let directory = RuntimeDirectory.current()
        let reply: ControlReply
        if !foreground {
            reply = try await joinOrStart(settings, in: directory)
        } else if let running = ControlClient(path: directory.socketPath(adapter: settings.adapter), timeout: Self.answerLimit) {
            reply = try join(running, settings)
        } else {
            if settings.channel == nil { Self.sayLooking() }
            let process = SessionProcess(adapter: settings.adapter, channel: settings.channel, name: settings.name,
                                         staleAfter: .seconds(staleOption.value.seconds), directory: directory, logging: false,
                                         relay: settings.relay, observing: settings.observing, open: settings.open ?? false,
                                         deck: settings.deck ?? .app, range: settings.range ?? .room)
            var failure: UserError?
            var joined: Channel?
            let code = await process.run(ready: { reply in
                failure = reply.failure
                joined = reply.status.map { Channel(rawValue: $0.channel) }
                if failure == nil { try? settings.config(joined: joined).save() }
            }, companion: { [quiet = settings.quiet ?? false] session in await ForegroundTable.run(session, quiet: quiet) })
            if let failure { throw failure }
            if code != 0 { throw ExitCode(code) }
            print("left channel \((joined ?? settings.channel ?? .default))")
            return
        }
        let joined = try ControlReplyPrinter.message(reply)
        try settings.config(joined: reply.status.map { Channel(rawValue: $0.channel) }).save()
        print(joined)
    }

    /// How long a running session may take to answer a join: one still
    /// finding its room answers once it has chosen (12 s and 3 s at most).
    static let answerLimit = 30
    /// How long a join that lost the race for the adapter's lock waits for
    /// the winner's socket, or for a session ending to let the adapter go.
    static let startLimit = Duration.seconds(5)

    /// Switches the running session, or starts one. Two joins at once: the
    /// adapter's lock decides which one starts the session, and the other
    /// joins that session once it listens, as a join after it would. A
    /// session that is leaving is waited for, then a new one starts.
    private func joinOrStart(_ settings: JoinSettings, in directory: RuntimeDirectory) async throws(UserError) -> ControlReply {
        let clock = ContinuousClock()
        let deadline = clock.now + Self.startLimit
        var saidLooking = false
        while true {
            if let running = ControlClient(path: directory.socketPath(adapter: settings.adapter), timeout: Self.answerLimit) {
                let reply = try join(running, settings)
                guard reply.status?.leaving == true else { return reply }
                guard running.awaitEnd(within: LeaveCommand.endLimit) else {
                    throw UserError(.temporary, "The session on \(settings.adapter) is leaving and has not ended within \(LeaveCommand.endLimit.components.seconds) s; see \(SessionLauncher.logPath(adapter: settings.adapter)), then join again.")
                }
                continue
            }
            if settings.channel == nil, !saidLooking { Self.sayLooking() }
            saidLooking = true
            let reply = try SessionLauncher.launch(settings, staleAfter: staleOption.value)
            // Exit 75: another session holds the adapter's lock, one a join
            // started at the same moment (its socket comes once it listens)
            // or one whose end is a moment away. Nothing announces either,
            // so look again shortly, until the deadline.
            guard reply.exitCode == UserError.Code.temporary.rawValue, clock.now < deadline else { return reply }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Switches the running session: channel (without one it keeps its
    /// own), name, role, deck and range.
    private func join(_ running: ControlClient, _ settings: JoinSettings) throws(UserError) -> ControlReply {
        if relayOptions.typed != RelayOptions() {
            // The relay starts with the session (its first word decides the join).
            StandardError.write("Warning: the running session keeps its relay; run `estimator leave`, then join again to change it.")
        }
        return try running.call(.join(channel: settings.channel?.rawValue, name: settings.name.text,
                                      observing: role.map { $0 == .observer }, deck: deck, range: range))
    }

    /// Says on standard error why the answer takes a few seconds, to a
    /// person at a terminal: standard output keeps its one line, and a
    /// script's standard error holds nothing but a failure's sentence.
    private static func sayLooking() {
        guard isatty(2) == 1 else { return }
        let seconds = ((try? RadioSchedule.fromEnvironment()) ?? .standard).roomFinding.components.seconds
        StandardError.write("Looking for a room nearby (\(seconds) s)…")
    }

    /// The adapter `watch` and `doctor` use too when none is given: the first
    /// powered one. Without an answer from bluetoothd, hci0: the session then
    /// says what is wrong.
    static func firstPoweredAdapter() async -> String {
        (try? await BlueZ.system().adapter().name) ?? "hci0"
    }
}

/// `join --voter` or `join --observer`: whether the session votes, or is
/// present without a vote (a facilitator), never waited for.
enum JoinRole: String, EnumerableFlag {
    case voter, observer

    static func help(for value: JoinRole) -> ArgumentHelp? {
        switch value {
        case .voter: "Vote in each round (the default)."
        case .observer: "Be present without a vote: run `round` and `reveal`, see the table, never waited for."
        }
    }
}

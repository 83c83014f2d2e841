import ArgumentParser
import EstimatorKit
import SessionDaemon

/// `estimator round [TITLE]`: move the whole room on to the next story.
struct RoundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "round",
        abstract: "Start the next round: everyone's cards are cleared, for the next story.",
        discussion: """
            Your session moves to the next round and clears your card; every \
            estimator session in the channel hears it within a moment and clears its \
            own card too, so the table starts afresh. There is no leader: anyone may \
            start the next round, and two people doing it at once end in one round. \
            Cards stay hidden until everyone present has voted, then all are revealed \
            together. The iOS app has no rounds: its users clear their card themselves.

            TITLE (a story key or a few words) goes to the whole room with the round \
            (its first 75 bytes on the air): every table's header shows it and every \
            session's `estimator history` keeps it. Without TITLE, the round \
            takes the next story of the backlog (`estimator backlog FILE`) that has no \
            agreed estimate yet: after a reveal without agreement, the same story is \
            voted again; once every story has one, or without a backlog, the round is \
            untitled. A TITLE that is a backlog story's key takes that story.

            --timer reveals the round for the whole room when it runs out, as \
            `estimator reveal` does, unless everyone has voted before; it goes to \
            the room with the round, so every session holds it (it reveals even if \
            you leave) and every table and board shows what is left. The next round \
            or a reveal stops it (`estimator reveal --in` starts one for a round \
            under way).

            Examples:
              $ estimator round ABC-123
              round 1 (ABC-123) began in channel 1; cards cleared

              $ estimator round "Login with passkeys"

              $ estimator round                  # with a backlog loaded
              round 1 (ABC-1 Login with passkeys) began in channel 1; cards cleared; story 1 of 3

              $ estimator round ABC-124 --timer 2m
              round 1 (ABC-124) began in channel 1; cards cleared; the timer reveals it in 2m
            """)

    /// Longest title accepted, in bytes: a header line, not a description.
    static let maximumTitleBytes = 120

    @Argument(help: "What the round estimates: a story key or a few words (default: the backlog's next story).")
    var title: TypedText?

    @Option(help: ArgumentHelp("Reveal the round for the room when this runs out: minutes and/or seconds such as 90s, 2m or 1m30s, up to 60m.",
                               valueName: "duration"))
    var timer: Countdown?

    @Option(help: "The adapter whose session to use, by name or address (default: the only running session).")
    var adapter: AdapterChoice?

    func validate() throws {
        guard let title = title?.text else { return }
        guard title.utf8.count <= Self.maximumTitleBytes else {
            throw ValidationError("The title is \(title.utf8.count) bytes long; give at most \(Self.maximumTitleBytes).")
        }
        guard TerminalText.sanitize(title) == title else {
            throw ValidationError("The title holds control characters; give it as plain text.")
        }
    }

    func run() async throws {
        let words = title?.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let (_, client) = try await SessionLocator.connect(adapter: adapter)
        try ControlReplyPrinter.print(client.call(.round(title: words?.isEmpty == false ? words : nil, timer: timer)))
    }
}

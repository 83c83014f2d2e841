import Clocks
import EstimatorKit
import Retry
import Threads

/// Keeps the relay process running beside the session. When it ends while
/// the session goes on (killed, crashed, out of memory), it is started
/// again after a `Backoff` delay with jitter, so a relay that keeps dying
/// neither spins nor brings every session of a room back at once; the
/// session's relay state says so meanwhile (`status`, `doctor`).
actor RelaySupervisor {
    /// A relay that ran this long before it ended is a fresh failure: the
    /// delays start again from the first.
    static let steadyRun: Duration = .seconds(30)

    private let settings: RelaySettings
    private let socket: String
    private let staleSeconds: Int64
    private let session: Session
    private let log: @Sendable (String) -> Void
    private var backoff = Backoff()
    /// Counts the starts, so that only the running relay's end is acted on.
    private var generation = 0
    private var child: RelayChild?
    /// When the running relay started (`clock.elapsed`).
    private var startedAt: Duration
    private var stopped = false

    init(settings: RelaySettings, socket: String, staleSeconds: Int64, session: Session,
         log: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.socket = socket
        self.staleSeconds = staleSeconds
        self.session = session
        self.log = log
        startedAt = session.clock.elapsed
    }

    /// On the session's loop, beside the session it reports to.
    nonisolated var unownedExecutor: UnownedSerialExecutor { session.unownedExecutor }

    /// The session's clock, which times the restarts.
    private var clock: any SessionClock { session.clock }

    /// Starts the relay on the session's channel; returns its first word
    /// (connected, or not reachable yet), or why it did not start.
    func start() async -> Result<ControlReply, UserError> {
        generation += 1
        let started = generation
        let channel = await session.channel
        let result = await RelayLauncher.start(settings, socket: socket, channel: channel,
                                               staleSeconds: staleSeconds) { [weak self] status in
            guard let self else { return }
            Task(executorPreference: self.session.loop) { await self.ended(started, status: status) }
        }
        switch result {
        case let .success((reply, child)):
            if let failure = reply.failure { return .failure(failure) }
            self.child = child
            startedAt = clock.elapsed
            return .success(reply)
        case let .failure(error):
            return .failure(error)
        }
    }

    /// No more restarts; returns once the relay has ended (it clears its
    /// topics when it sees the session's end), or after `limit`.
    func stop(limit: Duration) async {
        stopped = true
        await child?.waitForExit(limit: limit, clock: clock)
    }

    private func ended(_ started: Int, status: Int32) async {
        guard started == generation, child != nil else { return }
        child = nil
        guard !stopped, await !session.hasEnded else { return }
        if clock.elapsed - startedAt >= Self.steadyRun { backoff.reset() }
        var why = "the relay process \(Self.describe(status))"
        while true {
            let delay = backoff.next()
            let state = "\(settings.url) restarting the relay (\(why)); trying again in \(Self.seconds(delay))"
            log("relay: " + state)
            await session.relayRestarting(state)
            try? await clock.sleep(for: delay)
            guard !stopped, await !session.hasEnded else { return }
            switch await start() {
            case .success:
                // The new relay reports its broker connection itself.
                await session.relayRestarted()
                log("relay: the relay process started again")
                return
            case let .failure(error):
                why = error.sentence
            }
        }
    }

    /// A `waitpid` status in words.
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        return signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(signal)"
    }

    private static func seconds(_ delay: Duration) -> String {
        let tenths = Int((Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18) * 10 + 0.5)
        return "\(tenths / 10).\(tenths % 10) s"
    }
}

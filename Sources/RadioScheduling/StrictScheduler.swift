/// The strict mode's schedule (a controller with legacy advertising, which
/// refuses a new random address while it scans): every restart forgets the
/// app's devices, stops scanning, announces the advertisement again, waits
/// `settle` and scans again; every change, and its second announcement, is made in such a gap.
///
/// A restart falls due `restartEvery` (± `jitter`) after the last one
/// ended. When due, it first listens while the session asks (`lookAgain`),
/// for at most a random part of `listenLimit`, then holds while a peer
/// announced in the last `hold` (plus a random `backoff`, `holdLimit` in
/// all): a sighting is a peer announcing from its own gap, and a restart
/// then would put this radio's announcement in it, unheard. One gap at a
/// time: a change, an announcement or a restart that comes while another
/// gap runs waits for its end. docs/ARCHITECTURE.md, Radio schedule.
package struct StrictScheduler: RadioScheduler {
    /// What scanning is off for.
    enum Gap: Equatable, Sendable {
        case restart
        /// The change asked for; `failed` once a step of it failed.
        case change(failed: Bool)
        case reannounce
    }

    /// Where the next restart is.
    enum Restart: Equatable, Sendable {
        /// Waiting for the interval to run out.
        case waiting
        /// Due, and listening for a quiet peer until the earlier of what
        /// the session asked and `end`.
        case listening(end: Duration)
        /// Due since `due`, waiting for a moment without sightings.
        case holding(due: Duration)
        /// Ready, waiting for the gap under way to end.
        case ready
        /// Under way (the gap is `.restart`).
        case running
    }

    package let schedule: RadioSchedule
    let random: RadioSchedule.Draw
    private(set) var gap: Gap?
    private(set) var restart = Restart.waiting
    /// A change asked for while another gap ran.
    private(set) var changeWaiting = false
    /// The second announcement, due while another gap ran.
    private(set) var reannounceWaiting = false
    /// When the last sighting came.
    private(set) var lastHeard: Duration?
    /// Until when a due restart listens, as the session last asked.
    private(set) var listenUntil: Duration?
    /// Set once scanning ended for good or a restart failed: nothing more is scheduled.
    private(set) var ended = false
    /// Keeps a change's new part through the restarts soon after it.
    private var partHold: PartHold

    /// A scheduler on `schedule`; `random` draws the jitter, the backoff and the listening span.
    package init(schedule: RadioSchedule, random: @escaping RadioSchedule.Draw = RadioSchedule.draw) {
        self.schedule = schedule
        partHold = PartHold(span: schedule.partHold)
        self.random = random
    }

    package mutating func take(_ event: ScheduleEvent, at now: Duration) -> [ScheduleAction] {
        if case .heard = event { lastHeard = now }
        guard !ended else { return [] }
        switch event {
        case .scanStarted:
            return [.arm(.restart, at: now + schedule.nextInterval(random))]
        case .heard, .keepListening:
            // Its cards are in clear: a reveal sends nothing to wait for.
            return []
        case .rotates:
            // Every restart announces, and so moves the parts on.
            return []
        case .newParts:
            partHold.newParts()
            return []
        case .lookAgain:
            // Peers announce at each of their restarts, which a scan start
            // would not bring: the next restart listens for them instead,
            // until a little after the session's next tick.
            let until = now + schedule.tick + schedule.tick / 2
            listenUntil = max(listenUntil ?? until, until)
            return []
        case .fired(.restart):
            restart = .listening(end: now + schedule.listenSpan(random))
            return listenOrHold(now)
        case .fired(.listen):
            return listenOrHold(now)
        case .fired(.hold):
            return hold(now)
        case .fired(.settle):
            return [.perform(.startScan)]
        case .fired(.reannounce):
            guard gap == nil else {
                reannounceWaiting = true
                return []
            }
            gap = .reannounce
            return [.perform(.stopScan)]
        case .changeAsked:
            // A newer card makes the last one's second announcement pointless.
            reannounceWaiting = false
            guard gap == nil else {
                changeWaiting = true
                return [.cancel(.reannounce)]
            }
            gap = .change(failed: false)
            return [.cancel(.reannounce), .perform(.stopScan)]
        case .done(.stopScan):
            switch gap {
            case .change(failed: false): return [.perform(.change)]
            case .restart: return [.perform(partHold.holds(at: now) ? .announceAgain : .announceNextPart)]
            default: return [.perform(.announceAgain)]
            }
        case .done(.announceAgain), .done(.announceNextPart), .done(.change):
            return settle(now)
        case .failed(.announceAgain), .failed(.announceNextPart):
            // A restart goes on without its announcement; a second
            // announcement that failed has nothing to settle.
            return gap == .restart ? settle(now) : [.perform(.startScan)]
        case .failed(.change):
            gap = .change(failed: true)
            return [.perform(.startScan)]
        case .done(.startScan):
            return gapEnded(now, failed: false)
        case .failed(.stopScan), .failed(.startScan):
            if gap == .restart {
                ended = true
                return cancelAll + [.halt]
            }
            return gapEnded(now, failed: true)
        case .stopScanning:
            ended = true
            let waiting = changeWaiting || gap == .change(failed: false) || gap == .change(failed: true)
            return cancelAll + [.perform(.endScan)] + (waiting ? [.changeDone(failed: true)] : [])
        case .done(.endScan), .failed(.endScan), .done(.forgetApps), .failed(.forgetApps):
            return []
        }
    }

    /// Scanning stays off `settle` longer, for bluetoothd's second step.
    private func settle(_ now: Duration) -> [ScheduleAction] {
        schedule.settle > .zero ? [.arm(.settle, at: now + schedule.settle)] : [.perform(.startScan)]
    }

    /// A due restart listens while the session asks, for its span at most;
    /// then it holds.
    private mutating func listenOrHold(_ now: Duration) -> [ScheduleAction] {
        guard case let .listening(end) = restart else { return [] }
        if let until = listenUntil.map({ min($0, end) }), until > now { return [.arm(.listen, at: until)] }
        restart = .holding(due: now)
        return hold(now)
    }

    /// A due restart waits for a moment without sightings; then it begins.
    private mutating func hold(_ now: Duration) -> [ScheduleAction] {
        guard case let .holding(due) = restart else { return [] }
        let wait = schedule.holdRemaining(sinceSighting: lastHeard.map { now - $0 }, waited: now - due, random)
        if wait > .zero { return [.arm(.hold, at: now + wait)] }
        guard gap == nil else {
            restart = .ready
            return []
        }
        restart = .running
        gap = .restart
        return [.perform(.forgetApps), .perform(.stopScan)]
    }

    /// Scanning is on again (or could not be stopped): the gap's sequel,
    /// then the next gap waiting, a change first.
    private mutating func gapEnded(_ now: Duration, failed: Bool) -> [ScheduleAction] {
        var actions: [ScheduleAction] = []
        switch gap {
        case .restart:
            restart = .waiting
            actions = [.arm(.restart, at: now + schedule.nextInterval(random))]
        case let .change(changeFailed):
            // A peer in its own gap missed the change: announce it again,
            // once (docs/ARCHITECTURE.md, Why the strict mode is as it is).
            let ok = !failed && !changeFailed
            partHold.changeEnded(at: now, succeeded: ok)
            actions = [.changeDone(failed: !ok)] + (ok ? [.arm(.reannounce, at: now + schedule.reannounceAfter)] : [])
        case .reannounce, nil:
            break
        }
        gap = nil
        if changeWaiting {
            changeWaiting = false
            gap = .change(failed: false)
            return actions + [.perform(.stopScan)]
        }
        if reannounceWaiting {
            reannounceWaiting = false
            gap = .reannounce
            return actions + [.perform(.stopScan)]
        }
        if restart == .ready {
            restart = .running
            gap = .restart
            return actions + [.perform(.forgetApps), .perform(.stopScan)]
        }
        return actions
    }

    private var cancelAll: [ScheduleAction] { RadioTimer.allCases.map { .cancel($0) } }
}

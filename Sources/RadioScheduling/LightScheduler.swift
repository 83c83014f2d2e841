/// The light mode's schedule (a controller with extended advertising, whose
/// set keeps its address while the scan runs), and `watch`'s, which
/// advertises nothing: the scan restarts alone every `restartEvery` (±
/// `jitter`), the app's devices forgotten first, with no settle after and
/// no hold before it (the hold keeps an announcement out of a peer's gap,
/// and there is none); a change goes out
/// while scanning and once more `lightReannounceAfter` later. A change or
/// announcement due while a restart stops the scan waits for the scan to
/// start again: made in the gap, it would keep the scan off for as long as
/// bluetoothd takes to read it (up to a second on a loaded machine,
/// docs/MEASUREMENTS.md, The ballot). Asked to look
/// again for a quiet peer, it does nothing: its own restarts, at most 2 s
/// apart, already give a controller that filters duplicates a fresh start,
/// and a controller that repeats an advertiser reports the peer at its next
/// advertising event after one. A restart at each of the session's ticks
/// would leave the scan deaf for 30–120 ms each time, in step with every
/// other looking session, just when the room changes (docs/MEASUREMENTS.md,
/// The ballot). Asked to keep listening (a reveal's cards on their way),
/// a restart that falls due waits until then. A change made meanwhile (the
/// reveal's, which puts the card on the air) is announced again as any
/// other: a peer whose restart had stopped its scan before the reveal came
/// misses the first announcement, and without a second one hears the card
/// only at the set's next advertising event, 1.28 s on (docs/MEASUREMENTS.md,
/// The ballot). While the advertisement's parts take turns (a meeting with
/// a story, docs/PROTOCOL.md, Meeting), each restart ends with an
/// announcement, made while scanning as a change is, which puts the next
/// part on the air. docs/ARCHITECTURE.md, Radio schedule.
package struct LightScheduler: RadioScheduler {
    package let schedule: RadioSchedule
    let random: RadioSchedule.Draw
    /// Set once scanning ended for good or a restart failed: nothing more is scheduled.
    private(set) var ended = false
    /// No restart before this (`keepListening`).
    private var listenUntil: Duration?
    /// Whether a restart has stopped the scan, or is stopping it.
    private var stopping = false
    /// What fell due while `stopping` (a change, or else a second
    /// announcement), done once the scan starts again.
    private var afterStart: RadioStep?
    /// Whether the advertisement's parts take turns: each restart announces.
    private var rotates = false
    /// Keeps a change's new part through the restarts soon after it.
    private var partHold: PartHold

    /// A scheduler on `schedule`; `random` draws the intervals' jitter.
    package init(schedule: RadioSchedule, random: @escaping RadioSchedule.Draw = RadioSchedule.draw) {
        self.schedule = schedule
        partHold = PartHold(span: schedule.partHold)
        self.random = random
    }

    package mutating func take(_ event: ScheduleEvent, at now: Duration) -> [ScheduleAction] {
        guard !ended else { return [] }
        switch event {
        case .scanStarted:
            return [.arm(.restart, at: now + schedule.nextInterval(random))]
        case .heard, .lookAgain, .fired(.listen), .fired(.hold), .fired(.settle):
            return []
        case .keepListening(let until):
            listenUntil = max(listenUntil ?? until, until)
            return []
        case .rotates(let rotates):
            self.rotates = rotates
            return []
        case .newParts:
            partHold.newParts()
            return []
        case .fired(.restart):
            if let until = listening(at: now) { return [.arm(.restart, at: until)] }
            // The app's devices are forgotten while the scan still runs; a
            // change asked meanwhile goes out before the scan stops.
            return [.perform(.forgetApps)]
        case .done(.forgetApps), .failed(.forgetApps):
            // Asked meanwhile to keep listening: the scan is not stopped.
            if let until = listening(at: now) { return [.arm(.restart, at: until)] }
            stopping = true
            return [.perform(.stopScan)]
        case .changeAsked:
            guard !stopping else {
                // The change is announced again after it, not before.
                afterStart = .change
                return [.cancel(.reannounce)]
            }
            return [.cancel(.reannounce), .perform(.change)]
        case .done(.change):
            partHold.changeEnded(at: now, succeeded: true)
            return [.changeDone(failed: false), .arm(.reannounce, at: now + schedule.lightReannounceAfter)]
        case .failed(.change):
            partHold.changeEnded(at: now, succeeded: false)
            return [.changeDone(failed: true)]
        case .fired(.reannounce):
            guard !stopping else {
                if afterStart != .change { afterStart = .announceAgain }
                return []
            }
            return [.perform(.announceAgain)]
        case .done(.announceAgain), .failed(.announceAgain), .done(.announceNextPart), .failed(.announceNextPart),
             .done(.endScan), .failed(.endScan):
            return []
        case .done(.stopScan):
            stopping = false
            defer { afterStart = nil }
            // Parts that take turns move on with an announcement; a change
            // due is one already (its new parts start from the first).
            let due = afterStart ?? (rotates && !partHold.holds(at: now) ? .announceNextPart : nil)
            return [.perform(.startScan)] + (due.map { [.perform($0)] } ?? [])
        case .done(.startScan):
            return [.arm(.restart, at: now + schedule.nextInterval(random))]
        case .failed(.stopScan), .failed(.startScan):
            ended = true
            return RadioTimer.allCases.map { .cancel($0) } + [.halt]
        case .stopScanning:
            // An extended set advertises on untouched by the scan's end, so
            // it is announced again: the leave's second start.
            ended = true
            return RadioTimer.allCases.map { .cancel($0) } + [.perform(.endScan), .perform(.announceAgain)]
        }
    }

    /// When the wait asked for by `keepListening` ends, if it has not by `now`.
    private func listening(at now: Duration) -> Duration? {
        listenUntil.flatMap { now < $0 ? $0 : nil }
    }
}

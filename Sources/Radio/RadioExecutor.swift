import BlueZ
import Clocks
import RadioScheduling
import Synchronization
import Threads

/// Runs a radio's schedule (`RadioScheduler`): feeds it what happens,
/// performs the steps it asks for on the discovery and the advertisement,
/// one at a time and in order, and keeps its timers on the clock. It
/// decides nothing of when: that is the scheduler's alone.
package final class RadioExecutor: Sendable {
    /// A change asked for and not yet answered.
    private struct Change {
        let localName: String
        var parts: [[UInt8]]
        let asked: Duration
        /// When the change itself began (scanning stopped, if it stops).
        var began: Duration?
        /// When the `PropertiesChanged` was handed to the bus connection.
        var sent: Duration?
        let continuation: CheckedContinuation<RadioUpdate, any Error>
    }

    /// What the worker runs, in order.
    private enum Job: Sendable {
        case step(RadioStep)
        /// Resumed once every step queued before it has run.
        case barrier(CheckedContinuation<Void, Never>)
    }

    private struct State {
        var scheduler: any RadioScheduler
        var discovery: Discovery?
        var timers: [RadioTimer: (id: Int, task: Task<Void, Never>)] = [:]
        var nextTimer = 0
        var change: Change?
        /// What the last failed step threw.
        var lastError: (any Error)?
        var closed = false
    }

    private let handle: AdvertisementHandle?
    private let clock: any SessionClock
    private let onHalt: @Sendable (any Error) -> Void
    private let state: Mutex<State>
    private let jobs: AsyncStream<Job>.Continuation
    private let worker: Mutex<Task<Void, Never>?> = Mutex(nil)
    /// The loop the executor was made on, if any: its worker and timers run
    /// there although a sighting that arms a timer comes on the D-Bus thread.
    private let loop = SessionLoop.current

    /// An executor of `scheduler` for `handle` (nil: a discovery that
    /// advertises nothing), on `clock`. `onHalt` hears why a restart failed,
    /// which ends the schedule.
    package init(scheduler: any RadioScheduler, handle: AdvertisementHandle?, clock: any SessionClock,
         onHalt: @escaping @Sendable (any Error) -> Void) {
        self.handle = handle
        self.clock = clock
        self.onHalt = onHalt
        state = Mutex(State(scheduler: scheduler))
        let (stream, jobs) = AsyncStream.makeStream(of: Job.self)
        self.jobs = jobs
        let worker = Task(executorPreference: loop) { [weak self] in
            for await job in stream {
                switch job {
                case .step(let step):
                    guard let self else { return }
                    await self.run(step)
                case .barrier(let continuation):
                    continuation.resume()
                }
            }
        }
        self.worker.withLock { $0 = worker }
    }

    deinit { close() }

    /// Starts the schedule on `discovery`, which has started scanning.
    package func run(on discovery: Discovery) {
        state.withLock { $0.discovery = discovery }
        feedRotation()
        feed(.scanStarted)
    }

    /// Tells the scheduler of a sighting: called on the bus's reading thread.
    func heard() { feed(.heard) }

    /// Asks the scheduler to look for a peer gone quiet.
    func lookAgain() { feed(.lookAgain) }

    /// Asks the scheduler to keep scanning, with no restart, for `duration`.
    func keepListening(for duration: Duration) { feed(.keepListening(until: clock.elapsed + duration)) }

    /// Changes the advertised local name and parts, when the scheduler
    /// says so; returns once they are on the air, with how its time was spent.
    func update(localName: String, parts: [[UInt8]]) async throws -> RadioUpdate {
        let asked = clock.elapsed
        return try await withCheckedThrowingContinuation { continuation in
            let (closed, previous) = state.withLock { state -> (Bool, CheckedContinuation<RadioUpdate, any Error>?) in
                guard !state.closed else { return (true, nil) }
                defer { state.change = Change(localName: localName, parts: parts, asked: asked, continuation: continuation) }
                return (false, state.change?.continuation)
            }
            if closed { return continuation.resume(throwing: Self.stopped) }
            // One update at a time (Session.runUpdates): a call still
            // waiting is answered, never left hanging.
            previous?.resume(throwing: Self.stopped)
            feed(.rotates(parts.count > 1))
            if handle?.advertisement.manufacturerData?.parts != parts { feed(.newParts) }
            feed(.changeAsked)
        }
    }

    /// Takes `parts` for the advertisement's next announcement, with no
    /// change of its own: into the change asked, when one waits; else the
    /// scheduler announces at its next restart, which puts them on the air.
    func ride(parts: [[UInt8]]) throws {
        let waiting = state.withLock { state -> Bool in
            // Once the change began, its parts were read: these wait.
            guard state.change != nil, state.change?.began == nil else { return false }
            state.change?.parts = parts
            return true
        }
        guard !waiting else { return }
        try handle?.awaitAnnouncement(.meeting(parts))
        feed(.rotates(true))
    }

    /// Stops scanning for good and keeps advertising; returns once the
    /// steps that asks for have run.
    func stopScanning() async {
        feed(.stopScanning)
        await withCheckedContinuation { jobs.yield(.barrier($0)) }
    }

    /// Ends the schedule: no timer fires and no step starts from now on.
    package func close() {
        let (timers, change) = state.withLock { state in
            state.closed = true
            state.discovery = nil
            defer {
                state.timers = [:]
                state.change = nil
            }
            return (state.timers.values.map(\.task), state.change)
        }
        for timer in timers { timer.cancel() }
        change?.continuation.resume(throwing: BlueZError(.released, message: "the radio has stopped"))
        jobs.finish()
        worker.withLock { $0 }?.cancel()
    }

    /// Hands `event` to the scheduler now and does what it answers.
    private func feed(_ event: ScheduleEvent) {
        let now = clock.elapsed
        let (answers, halted) = state.withLock { state -> ([(CheckedContinuation<RadioUpdate, any Error>, Result<RadioUpdate, any Error>)], (any Error)?) in
            guard !state.closed else { return ([], nil) }
            var answers: [(CheckedContinuation<RadioUpdate, any Error>, Result<RadioUpdate, any Error>)] = []
            var halted: (any Error)?
            for action in state.scheduler.take(event, at: now) {
                switch action {
                case .perform(let step):
                    jobs.yield(.step(step))
                case let .arm(timer, deadline):
                    state.timers[timer]?.task.cancel()
                    state.nextTimer += 1
                    let id = state.nextTimer
                    let clock = clock
                    let task = Task(executorPreference: self.loop) { [weak self] in
                        do { try await clock.sleep(until: deadline) } catch { return }
                        self?.fired(timer, id: id)
                    }
                    state.timers[timer] = (id, task)
                case .cancel(let timer):
                    state.timers.removeValue(forKey: timer)?.task.cancel()
                case .changeDone(let failed):
                    guard let change = state.change else { continue }
                    state.change = nil
                    if failed {
                        answers.append((change.continuation, .failure(state.lastError ?? Self.stopped)))
                    } else {
                        let began = change.began ?? change.asked
                        answers.append((change.continuation,
                                        .success(RadioUpdate(scanStop: began - change.asked, sent: change.sent ?? began))))
                    }
                case .halt:
                    // Nothing more is scheduled: refuse changes until the radio starts anew.
                    state.closed = true
                    halted = state.lastError ?? Self.stopped
                    if let change = state.change {
                        state.change = nil
                        answers.append((change.continuation, .failure(halted!)))
                    }
                }
            }
            return (answers, halted)
        }
        for (continuation, result) in answers { continuation.resume(with: result) }
        if let halted { onHalt(halted) }
    }

    /// A timer ran out: fed unless it was disarmed or armed again meanwhile.
    private func fired(_ timer: RadioTimer, id: Int) {
        let current = state.withLock { state in
            guard state.timers[timer]?.id == id else { return false }
            state.timers[timer] = nil
            return true
        }
        if current { feed(.fired(timer)) }
    }

    /// Tells the scheduler whether the advertisement's parts take turns now
    /// (data that awaited an announcement had it).
    private func feedRotation() {
        feed(.rotates((handle?.advertisement.manufacturerData?.parts.count ?? 0) > 1))
    }

    /// Runs one step and tells the scheduler how it went.
    private func run(_ step: RadioStep) async {
        let discovery = state.withLock { $0.discovery }
        do {
            switch step {
            case .forgetApps:
                await discovery?.forgetDiscoverable()
            case .stopScan:
                try await discovery?.pause()
            case .startScan:
                try await discovery?.resume()
            case .announceAgain:
                try await handle?.announceAgain()
                feedRotation()
            case .announceNextPart:
                try await handle?.announceNextPart()
                feedRotation()
            case .change:
                let began = clock.elapsed
                guard let handle, let change = state.withLock({ state in
                    state.change?.began = began
                    return state.change.map { ($0.localName, $0.parts) }
                }) else { break }
                try await handle.update(localName: change.0, manufacturerData: .meeting(change.1))
                let sent = clock.elapsed
                state.withLock { $0.change?.sent = sent }
                try await handle.synchronize()
            case .endScan:
                await discovery?.stop()
            }
            feed(.done(step))
        } catch {
            state.withLock { $0.lastError = error }
            feed(.failed(step))
        }
    }

    private static let stopped = BlueZError(.released, message: "the radio has stopped")
}

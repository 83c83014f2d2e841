import Radio
import Synchronization

/// A radio that lives in memory: it records what it is asked to advertise
/// and reports whatever events it is given, for the in-process tests of the
/// session core (the CLI's subprocess tests run the BlueZ radio against a
/// fake org.bluez instead). Nothing of D-Bus or BlueZ is imitated.
final class MemoryRadio: SessionRadio {
    /// Where calls of one kind wait while the test holds them.
    private struct Gate {
        var holding = false
        var held: [CheckedContinuation<Void, Never>] = []
        /// Tests waiting for a call to be held.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private struct State {
        var advertised: [[UInt8]] = []
        var advertisedParts: [[[UInt8]]] = []
        var rodeParts: [[[UInt8]]] = []
        var isRunning = false
        var isScanning = false
        var startFailure: RadioError?
        var updateFailure: RadioError?
        var updates = Gate()
        var starts = Gate()
        var updating = 0
        var mostUpdating = 0
        var take: @Sendable (Reception) -> Void = { _ in }
        var lookedAgain = 0
        var keptListening: [Duration] = []
        var changesWhileScanning = false
    }

    private let state = Mutex(State())
    let events: AsyncStream<RadioEvent>
    private let continuation: AsyncStream<RadioEvent>.Continuation

    init(startFailure: RadioError? = nil) {
        (events, continuation) = AsyncStream.makeStream(of: RadioEvent.self)
        state.withLock { $0.startFailure = startFailure }
    }

    /// Every local name advertised, oldest first.
    var advertised: [[UInt8]] { state.withLock { $0.advertised } }
    /// The meeting's parts advertised with each local name, oldest first.
    var advertisedParts: [[[UInt8]]] { state.withLock { $0.advertisedParts } }
    /// Whether an advertisement is registered.
    var isRunning: Bool { state.withLock { $0.isRunning } }

    /// Whether a change leaves the scan running, as the light mode's does.
    var changesWhileScanning: Bool {
        get { state.withLock { $0.changesWhileScanning } }
        set { state.withLock { $0.changesWhileScanning = newValue } }
    }

    /// Whether it scans (from `start` until `stopScanning` or `stop`).
    var isScanning: Bool { state.withLock { $0.isScanning } }

    /// Makes the next `start` (or every `update`) fail.
    func failNextStart(with error: RadioError) { state.withLock { $0.startFailure = error } }
    func failUpdates(with error: RadioError?) { state.withLock { $0.updateFailure = error } }

    /// Delivers an event as if the radio had reported it.
    func report(_ event: RadioEvent) { continuation.yield(event) }

    /// Delivers a reception (with a part of its sender's meeting) as if the radio had read it.
    func hear(localName: [UInt8], rssi: Int?, part: [UInt8] = []) {
        state.withLock { $0.take }(Reception(localName: localName, rssi: rssi, received: .zero, part: part))
    }

    func onReception(_ take: @escaping @Sendable (Reception) -> Void) { state.withLock { $0.take = take } }

    func start(localName: [UInt8], parts: [[UInt8]]) async throws(RadioError) {
        try state.withLock { state throws(RadioError) in
            if let failure = state.startFailure {
                state.startFailure = nil
                throw failure
            }
            state.isRunning = true
            state.isScanning = true
            state.advertised.append(localName)
            state.advertisedParts.append(parts)
        }
        await pass(\.starts)
        // As the BlueZ radio's calls do when their task is cancelled.
        if Task.isCancelled { throw .failed("cancelled") }
    }

    /// The most updates that ran at the same time.
    var mostConcurrentUpdates: Int { state.withLock { $0.mostUpdating } }

    /// Makes updates wait in the radio until `releaseUpdates`.
    func holdUpdates() { state.withLock { $0.updates.holding = true } }

    /// Returns once an update waits in the radio.
    func updateHeld() async { await held(\.updates) }

    /// Lets held updates and all later ones through.
    func releaseUpdates() { release(\.updates) }

    /// Makes starts that worked wait in the radio before they return, until
    /// `releaseStarts`: as when BlueZ's reply is on its way.
    func holdStarts() { state.withLock { $0.starts.holding = true } }

    /// Returns once a start waits in the radio.
    func startHeld() async { await held(\.starts) }

    /// Lets held starts and all later ones through.
    func releaseStarts() { release(\.starts) }

    private func held(_ gate: WritableKeyPath<State, Gate> & Sendable) async {
        await withCheckedContinuation { waiter in
            let ready = state.withLock { state in
                if state[keyPath: gate].held.isEmpty { state[keyPath: gate].waiters.append(waiter) }
                return !state[keyPath: gate].held.isEmpty
            }
            if ready { waiter.resume() }
        }
    }

    private func release(_ gate: WritableKeyPath<State, Gate> & Sendable) {
        let held = state.withLock { state in
            state[keyPath: gate].holding = false
            defer { state[keyPath: gate].held = [] }
            return state[keyPath: gate].held
        }
        for call in held { call.resume() }
    }

    /// Waits while the test holds calls of this kind.
    private func pass(_ gate: WritableKeyPath<State, Gate> & Sendable) async {
        await withCheckedContinuation { call in
            let waiters = state.withLock { state in
                guard state[keyPath: gate].holding else { return nil as [CheckedContinuation<Void, Never>]? }
                state[keyPath: gate].held.append(call)
                defer { state[keyPath: gate].waiters = [] }
                return state[keyPath: gate].waiters
            }
            guard let waiters else { return call.resume() }
            for waiter in waiters { waiter.resume() }
        }
    }

    func update(localName: [UInt8], parts: [[UInt8]]) async throws(RadioError) -> RadioUpdate {
        state.withLock { state in
            state.updating += 1
            state.mostUpdating = max(state.mostUpdating, state.updating)
        }
        defer { state.withLock { $0.updating -= 1 } }
        await pass(\.updates)
        try state.withLock { state throws(RadioError) in
            if let failure = state.updateFailure { throw failure }
            state.advertised.append(localName)
            state.advertisedParts.append(parts)
        }
        return RadioUpdate(scanStop: .zero, sent: .zero)
    }

    /// Parts put on the air with the next announcement (`ride`), in order.
    var rodeParts: [[[UInt8]]] { state.withLock { $0.rodeParts } }

    func ride(parts: [[UInt8]]) { state.withLock { $0.rodeParts.append(parts) } }

    func stopScanning() async { state.withLock { $0.isScanning = false } }

    func lookAgain() { state.withLock { $0.lookedAgain += 1 } }

    func keepListening(for duration: Duration) { state.withLock { $0.keptListening.append(duration) } }

    /// Each time the session asked the scan to keep running, for how long.
    var keptListening: [Duration] { state.withLock { $0.keptListening } }

    /// How often the session asked for a quiet peer to be looked for again.
    var lookedAgain: Int { state.withLock { $0.lookedAgain } }

    func stop() async {
        state.withLock { state in
            state.isRunning = false
            state.isScanning = false
        }
        continuation.finish()
    }
}

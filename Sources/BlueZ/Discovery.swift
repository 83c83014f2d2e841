import DBus
import Synchronization

extension Adapter {
    /// Starts an LE discovery for advertisers of `serviceUUIDs` and returns it as a
    /// stream of sightings.
    ///
    /// Sets BlueZ's discovery filter `{Transport: le, DuplicateData: true, UUIDs}`,
    /// starts discovering, reports the devices BlueZ already hears, then every
    /// reception. Controllers (and the emulator) report an advertiser about once
    /// per scan start, so with a `schedule` the scan is stopped and started
    /// again at its cadence, and advertisers still on the air are reported anew
    /// (see `ScanSchedule` for each step). `clock` times every step.
    ///
    /// Throws `.notPowered` if the adapter is off, `.adapterNotFound` if it is gone.
    ///
    /// `whileStopped` runs at each restart as soon as scanning is off, for work
    /// the controller refuses while it scans (re-announcing an advertisement).
    ///
    /// `onSighting`, when given, takes every sighting instead of the sequence
    /// (which then carries only restarts and the end), synchronously on the bus
    /// connection's reading thread as BlueZ's signal is read: a consumer that
    /// keeps a table wakes nothing else per reception. It must return quickly.
    public func discover(
        serviceUUIDs: [String], schedule: ScanSchedule? = nil, clock: any RadioClock = ContinuousRadioClock(),
        whileStopped: (@Sendable () async -> Void)? = nil, onSighting: (@Sendable (Sighting) -> Void)? = nil
    ) async throws -> Discovery {
        let manager = ObjectManager(bus: bus)
        let discovery = Discovery(
            adapter: self, wanted: Set(serviceUUIDs.map { $0.lowercased() }), clock: clock, onSighting: onSighting)
        // Subscribe before anything starts, so no reception is missed.
        // Weakly: the connection holds the handler, and a dropped discovery must still end.
        let changes = try await manager.handleSignals(
            under: path, interfaces: [Sighting.deviceInterface], ended: { [weak discovery] in discovery?.connectionEnded($0) }
        ) { [weak discovery] in discovery?.take($0) }
        let owners = try await BlueZError.mapping { try await bus.nameOwner(of: ObjectManager.service) }
        let filter: [String: Value] = [
            "Transport": .string("le"),
            "DuplicateData": .boolean(true),
            "UUIDs": .array(element: .string, serviceUUIDs.map { .string($0) }),
        ]
        try await call("SetDiscoveryFilter", filter)
        try await call("StartDiscovery")
        let objects: [ObjectPath: InterfaceProperties]
        do {
            objects = try await manager.objects()
        } catch {
            await discovery.stop()
            throw error
        }
        discovery.run(changes: changes, owners: owners, objects: objects, schedule: schedule, whileStopped: whileStopped)
        return discovery
    }

    /// Calls a method of `Adapter1` on this adapter.
    func call<each Argument: DBusEncodable>(_ member: String, _ arguments: repeat each Argument) async throws {
        try await BlueZError.mapping {
            _ = try await bus.call(
                destination: ObjectManager.service, path: path, interface: Self.interface, member: member,
                repeat each arguments)
        }
    }
}

/// A running discovery: an `AsyncSequence` of `DiscoveryEvent`s (one consumer).
///
/// Its lifetime is the discovery: `stop()` (or dropping it) stops discovering.
/// The sequence ends with a `BlueZError` when the adapter goes away, bluetoothd
/// stops, or a restart fails (say, the adapter was powered off).
public final class Discovery: AsyncSequence, Sendable {
    public typealias Element = DiscoveryEvent

    /// The adapter discovering.
    public let adapter: Adapter
    private let wanted: Set<String>
    private let stream: AsyncThrowingStream<DiscoveryEvent, any Error>
    private let continuation: AsyncThrowingStream<DiscoveryEvent, any Error>.Continuation
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let stopped = Atomic<Bool>(false)
    private let scanLock = ScanLock()
    private let clock: any RadioClock
    /// When the last sighting was delivered (`clock.elapsed`), for the hold
    /// before a restart (see `ScanSchedule`).
    private let lastSighting = Mutex<Duration?>(nil)
    /// The wait for the next restart, while it runs: `lookAgain` ends it.
    private let pendingWait = Mutex<Task<Void, any Error>?>(nil)
    /// Until when (`clock.elapsed`) a due restart keeps listening, as
    /// `listen(for:)` asked.
    private let listening = Mutex<Duration?>(nil)
    private let consumer: @Sendable (Sighting) -> Void
    /// The adapter's devices as last heard, kept on the bus's reading thread.
    /// Nil until the snapshot is in; signals read before it wait in `early`.
    private let cache = Mutex<(devices: [ObjectPath: DeviceRecord]?, early: [Message])>((nil, []))
    private let changes = Mutex<SignalHandler?>(nil)

    init(adapter: Adapter, wanted: Set<String>, clock: any RadioClock, onSighting: (@Sendable (Sighting) -> Void)?) {
        self.adapter = adapter
        self.wanted = wanted
        self.clock = clock
        let (stream, continuation) = AsyncThrowingStream<DiscoveryEvent, any Error>.makeStream()
        (self.stream, self.continuation) = (stream, continuation)
        consumer = onSighting ?? { continuation.yield(.sighting($0)) }
    }

    /// Hands a sighting on, noting when (for the hold before a restart).
    private func deliver(_ sighting: Sighting) {
        lastSighting.withLock { $0 = clock.elapsed }
        consumer(sighting)
    }

    deinit {
        changes.withLock { $0?.cancel() }
        for task in tasks.withLock({ $0 }) { task.cancel() }
        guard !stopped.load(ordering: .acquiring) else { return }
        // Nobody can wait here: ask BlueZ to stop and move on.
        let adapter = self.adapter
        Task { try? await adapter.call("StopDiscovery") }
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<DiscoveryEvent, any Error>.AsyncIterator {
        stream.makeAsyncIterator()
    }

    /// Stops discovering and ends the sequence. Safe to call more than once.
    public func stop() async {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        changes.withLock { $0?.cancel() }
        for task in tasks.withLock({ $0 }) { task.cancel() }
        continuation.finish()
        // The adapter may be gone or off already; then there is nothing to stop.
        try? await adapter.call("StopDiscovery")
    }

    /// Runs `body` with scanning stopped, keeps it stopped for `settle` more,
    /// then scans again; returns what `body` returned.
    ///
    /// A controller refuses the new random address an advertisement change
    /// needs while it scans ("LE Set Random Address → Command Disallowed" in
    /// btmon, btvirt on kernel 6.1: docs/ARCHITECTURE.md, Radio schedule),
    /// which leaves the advertiser silent. So an advertisement is changed with the discovery paused;
    /// `settle` covers bluetoothd applying the change after the call that
    /// asked for it returned (a `PropertiesChanged` is a signal: there is no
    /// reply to wait for).
    ///
    /// A pause, once begun, runs to its end even if the caller is cancelled:
    /// a cancelled call could not start scanning again.
    @discardableResult
    public func pausing<Result: Sendable>(
        settle: Duration, _ body: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let adapter = self.adapter
        return try await Task { [self] in
            try await scanLock.run {
                guard !stopped.load(ordering: .acquiring) else { return try await body() }
                try await adapter.call("StopDiscovery")
                let result: Result
                do {
                    result = try await body()
                    try await clock.sleep(for: settle)
                } catch {
                    try? await adapter.call("StartDiscovery")
                    throw error
                }
                try await adapter.call("StartDiscovery")
                return result
            }
        }.value
    }

    /// Restarts the scan now instead of at the end of the current interval
    /// (the hold still comes first): a controller that reports an
    /// advertiser only when a scan starts hears a quiet one again only so.
    /// Does nothing without a schedule, or while a restart is under way.
    public func lookAgain() {
        pendingWait.withLock { $0?.cancel() }
    }

    /// Keeps scanning through a restart that falls due in the next
    /// `duration`: it waits until `duration` has passed, for at most a
    /// random part of the schedule's `listenLimit` (see `ScanSchedule`).
    /// For an advertiser gone unheard that announces at its own restarts:
    /// its announcements fell in this radio's gaps, and its next one comes
    /// while this radio listens. The caller asks again while it stays
    /// unheard. Does nothing without a schedule or a `listenLimit`.
    public func listen(for duration: Duration) {
        let until = clock.elapsed + duration
        listening.withLock { $0 = Swift.max($0 ?? until, until) }
    }

    func run<Owners: AsyncSequence & Sendable>(
        changes handler: SignalHandler, owners: Owners, objects: [ObjectPath: InterfaceProperties],
        schedule: ScanSchedule?, whileStopped: (@Sendable () async -> Void)?
    ) where Owners.Element == String? {
        let continuation = self.continuation
        let adapter = self.adapter
        changes.withLock { $0 = handler }
        // The snapshot, then what arrived while it was read, in order; the
        // reading thread waits on the lock meanwhile, so nothing overtakes.
        cache.withLock { cache in
            var devices: [ObjectPath: DeviceRecord] = [:]
            for (path, interfaces) in objects where path.isDescendant(of: adapter.path) {
                if let device = interfaces[Sighting.deviceInterface] { devices[path] = DeviceRecord(properties: device) }
            }
            let now = ContinuousClock.now
            for (path, device) in devices.sorted(by: { $0.key < $1.key }) {
                device.sighting(device: path, wanted: wanted, time: now).map(deliver)
            }
            for message in cache.early { take(message, devices: &devices) }
            cache = (devices, [])
        }
        // bluetoothd leaving (even by a crash, which says nothing) ends the discovery.
        let watcher = Task {
            var first = true
            do {
                for try await owner in owners {
                    defer { first = false }
                    if first, owner != nil { continue }
                    break
                }
            } catch {}
            guard !Task.isCancelled else { return }
            continuation.finish(throwing: BlueZError(.bluetoothdAbsent, message: "bluetoothd left the bus"))
        }
        var started = [watcher]
        if let schedule {
            started.append(Task { await restart(on: schedule, whileStopped: whileStopped) })
        }
        tasks.withLock { $0 = started }
    }

    /// Restarts the scan on `schedule` until cancelled or a call fails (which
    /// ends the sequence): when due, listens if asked, waits for the hold
    /// (see `ScanSchedule`), then forgets the discoverable advertisers
    /// (`forgetDiscoverable`), stops scanning, runs `whileStopped`, settles
    /// and scans again.
    private func restart(on schedule: ScanSchedule, whileStopped: (@Sendable () async -> Void)?) async {
        let (adapter, clock, scanLock) = (self.adapter, self.clock, self.scanLock)
        while !Task.isCancelled {
            do {
                // Cut short by lookAgain (cancelling the wait), not by this task's end.
                let wait = Task { try await clock.sleep(for: schedule.nextInterval()) }
                pendingWait.withLock { $0 = wait }
                await withTaskCancellationHandler { _ = try? await wait.value } onCancel: { wait.cancel() }
                pendingWait.withLock { $0 = nil }
                try Task.checkCancellation()
                let listenEnd = clock.elapsed + schedule.listenSpan()
                while let until = listening.withLock({ $0 }).map({ Swift.min($0, listenEnd) }), until > clock.elapsed {
                    try await clock.sleep(for: until - clock.elapsed)
                }
                let due = clock.elapsed
                while true {
                    let since = lastSighting.withLock { $0 }.map { clock.elapsed - $0 }
                    let wait = schedule.holdRemaining(sinceSighting: since, waited: clock.elapsed - due)
                    guard wait > .zero else { break }
                    try await clock.sleep(for: wait)
                }
                await forgetDiscoverable()
                try await scanLock.run {
                    try await adapter.call("StopDiscovery")
                    await whileStopped?()
                    if schedule.settle > .zero { try await clock.sleep(for: schedule.settle) }
                    try await adapter.call("StartDiscovery")
                }
                continuation.yield(.restarted(.now))
            } catch is CancellationError {
                return
            } catch {
                continuation.finish(throwing: error)
                return
            }
        }
    }

    /// Removes from BlueZ the wanted devices that advertise as discoverable
    /// (an iPhone's app) and that BlueZ keeps only because they were heard
    /// (never a paired, trusted or connected one), so it reads their next
    /// local name afresh.
    ///
    /// BlueZ 5.66 takes a shortened local name (what an iPhone sends) into
    /// `Name` only while the device has none, and a scan stop removes only
    /// the devices that are not connectable; an iPhone's advertisement is
    /// connectable, so without this its first name, card and all, would
    /// stay until its address changes. A device that fails to go is tried
    /// again at the next restart.
    ///
    /// Done while still scanning, before the stop and outside the scan
    /// lock: each removal is a round trip to bluetoothd, which in the
    /// scan's gap is time deaf to every peer (with one iPhone beside
    /// room-extended@bumble, 1.7 % of the steady minute became 4.4 %), and
    /// under the lock would hold up an advertisement change. A report
    /// between a removal and the stop only brings the device back with its
    /// current name.
    private func forgetDiscoverable() async {
        let paths = cache.withLock { cache in
            (cache.devices ?? [:]).filter { $0.value.isDiscoverable && $0.value.isTemporary && $0.value.offers(wanted) }
                .map(\.key).sorted()
        }
        for path in paths { try? await adapter.call("RemoveDevice", path) }
    }

    /// Takes one of org.bluez's signals, on the bus's reading thread.
    func take(_ message: Message) {
        cache.withLock { cache in
            guard var devices = cache.devices else { return cache.early.append(message) }
            cache.devices = nil  // moved out, so the records are changed in place
            take(message, devices: &devices)
            cache.devices = devices
        }
    }

    /// The connection to the bus was lost.
    func connectionEnded(_ error: DBusError) { continuation.finish(throwing: BlueZError(error)) }

    /// Applies one signal and delivers the sighting it means, if any; the
    /// adapter's removal ends the discovery. A signal that does not decode
    /// (not BlueZ's shape) is skipped.
    private func take(_ message: Message, devices: inout [ObjectPath: DeviceRecord]) {
        guard message.hasMember("PropertiesChanged") else {
            if let change = try? ObjectManager.decode(message) { apply(change, to: &devices) }
            return
        }
        // The bus sends only Device1's changes under the adapter (see ObjectManager.rules).
        guard let path = message.path, path.isDescendant(of: adapter.path) else { return }
        var reader = message.makeReader()
        guard (try? reader.readString(equalTo: Sighting.deviceInterface)) == true else { return }
        // Changed in place: one lookup of the path per signal.
        devices[path, default: DeviceRecord()].sighting(applying: &reader, device: path, wanted: wanted).map(deliver)
    }

    private func apply(_ change: ObjectChange, to devices: inout [ObjectPath: DeviceRecord]) {
        switch change {
        case .added(let path, let interfaces):
            guard path.isDescendant(of: adapter.path), let properties = interfaces[Sighting.deviceInterface] else { return }
            let device = DeviceRecord(properties: properties)
            devices[path] = device
            device.sighting(device: path, wanted: wanted, time: .now).map(deliver)
        case .removed(adapter.path, let interfaces) where interfaces.contains(Adapter.interface):
            devices = [:]
            continuation.finish(throwing: BlueZError(.adapterNotFound, message: "adapter \(adapter.name) went away"))
        case .removed(let path, let interfaces):
            if interfaces.contains(Sighting.deviceInterface) { devices[path] = nil }
        case .propertiesChanged:
            break
        }
    }
}

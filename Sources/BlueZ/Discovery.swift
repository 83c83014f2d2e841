import DBus
import Synchronization
import Threads

extension Adapter {
    /// Starts an LE discovery for advertisers of `serviceUUIDs` and returns it as a
    /// stream of sightings.
    ///
    /// Sets BlueZ's discovery filter `{Transport: le, DuplicateData: true, UUIDs}`,
    /// starts discovering, reports the devices BlueZ already hears, then every
    /// reception. Controllers (and the emulator) report an advertiser about once
    /// per scan start; a caller that wants advertisers still on the air reported
    /// anew restarts the scan (`pause`, `resume`) when it sees fit: when is
    /// not this module's to decide.
    ///
    /// Throws `.notPowered` if the adapter is off, `.adapterNotFound` if it is gone.
    ///
    /// `onSighting`, when given, takes every sighting instead of the sequence
    /// (which then carries only restarts and the end), synchronously on the bus
    /// connection's reading thread as BlueZ's signal is read: a consumer that
    /// keeps a table wakes nothing else per reception. It must return quickly.
    public func discover(
        serviceUUIDs: [String], onSighting: (@Sendable (Sighting) -> Void)? = nil
    ) async throws -> Discovery {
        let manager = ObjectManager(bus: bus)
        let discovery = Discovery(adapter: self, wanted: Set(serviceUUIDs.map { $0.lowercased() }), onSighting: onSighting)
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
        discovery.run(changes: changes, owners: owners, objects: objects)
        return discovery
    }

    /// Calls a method of `Adapter1` on this adapter.
    package func call<each Argument: DBusEncodable>(_ member: String, _ arguments: repeat each Argument) async throws {
        try await BlueZError.mapping {
            _ = try await bus.call(
                destination: ObjectManager.service, path: path, interface: Self.interface, member: member,
                repeat each arguments)
        }
    }
}

/// A running discovery: an `AsyncSequence` of `Sighting`s (one consumer).
///
/// Its lifetime is the discovery: `stop()` (or dropping it) stops discovering.
/// The sequence ends with a `BlueZError` when the adapter goes away or
/// bluetoothd stops.
public final class Discovery: AsyncSequence, Sendable {
    public typealias Element = Sighting

    /// The adapter discovering.
    public let adapter: Adapter
    private let wanted: Set<String>
    private let stream: AsyncThrowingStream<Sighting, any Error>
    private let continuation: AsyncThrowingStream<Sighting, any Error>.Continuation
    private let watcher = Mutex<Task<Void, Never>?>(nil)
    private let stopped = Atomic<Bool>(false)
    private let consumer: @Sendable (Sighting) -> Void
    /// The adapter's devices as last heard, kept on the bus's reading thread.
    /// Nil until the snapshot is in; signals read before it wait in `early`.
    private let cache = Mutex<(devices: [ObjectPath: DeviceRecord]?, early: [Message])>((nil, []))
    private let changes = Mutex<SignalHandler?>(nil)

    init(adapter: Adapter, wanted: Set<String>, onSighting: (@Sendable (Sighting) -> Void)?) {
        self.adapter = adapter
        self.wanted = wanted
        let (stream, continuation) = AsyncThrowingStream<Sighting, any Error>.makeStream()
        (self.stream, self.continuation) = (stream, continuation)
        consumer = onSighting ?? { continuation.yield($0) }
    }

    deinit {
        changes.withLock { $0?.cancel() }
        watcher.withLock { $0 }?.cancel()
        guard !stopped.load(ordering: .acquiring) else { return }
        // Nobody can wait here: ask BlueZ to stop and move on.
        let adapter = self.adapter
        Task(executorPreference: SessionLoop.current) { try? await adapter.call("StopDiscovery") }
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<Sighting, any Error>.AsyncIterator {
        stream.makeAsyncIterator()
    }

    /// Stops discovering and ends the sequence. Safe to call more than once.
    public func stop() async {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        changes.withLock { $0?.cancel() }
        watcher.withLock { $0 }?.cancel()
        continuation.finish()
        // The adapter may be gone or off already; then there is nothing to stop.
        try? await adapter.call("StopDiscovery")
    }

    /// Stops scanning for a moment, and the discovery goes on: `resume()`
    /// scans again. For what a controller refuses while it scans: a legacy
    /// controller refuses the new random address an advertisement change
    /// needs ("LE Set Random Address → Command Disallowed" in btmon, btvirt
    /// on kernel 6.1: docs/ARCHITECTURE.md, Radio schedule); and a restart
    /// makes a controller report advertisers still on the air anew. The
    /// caller keeps pauses and resumes in order. Does nothing once stopped.
    public func pause() async throws {
        guard !stopped.load(ordering: .acquiring) else { return }
        try await adapter.call("StopDiscovery")
    }

    /// Scans again after `pause()`. Does nothing once stopped.
    public func resume() async throws {
        guard !stopped.load(ordering: .acquiring) else { return }
        try await adapter.call("StartDiscovery")
    }

    func run<Owners: AsyncSequence & Sendable>(
        changes handler: SignalHandler, owners: Owners, objects: [ObjectPath: InterfaceProperties]
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
            for (path, device) in devices.sorted(by: { $0.key < $1.key }) {
                device.sighting(device: path, wanted: wanted).map(consumer)
            }
            for message in cache.early { take(message, devices: &devices) }
            cache = (devices, [])
        }
        // bluetoothd leaving (even by a crash, which says nothing) ends the discovery.
        let watcher = Task(executorPreference: SessionLoop.current) {
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
        self.watcher.withLock { $0 = watcher }
    }

    /// Removes from BlueZ the wanted devices that advertise as discoverable
    /// (an iPhone's app) and that BlueZ keeps only because they were heard
    /// (never a paired, trusted or connected one), so it reads their next
    /// local name afresh when they are reported again: a caller restarting
    /// the scan calls it first, while still scanning. A device that fails
    /// to go is tried again next time.
    ///
    /// BlueZ 5.66 takes a shortened local name (what an iPhone sends) into
    /// `Name` only while the device has none, and a scan stop removes only
    /// the devices that are not connectable; an iPhone's advertisement is
    /// connectable, so without this its first name, card and all, would
    /// stay until its address changes.
    ///
    /// Each removal is a round trip to bluetoothd: in the scan's gap it
    /// would be time deaf to every peer (docs/MEASUREMENTS.md, App users).
    /// A report between a removal and the stop only brings the device back
    /// with its current name.
    public func forgetDiscoverable() async {
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
        devices[path, default: DeviceRecord()].sighting(applying: &reader, device: path, wanted: wanted).map(consumer)
    }

    private func apply(_ change: ObjectChange, to devices: inout [ObjectPath: DeviceRecord]) {
        switch change {
        case .added(let path, let interfaces):
            guard path.isDescendant(of: adapter.path), let properties = interfaces[Sighting.deviceInterface] else { return }
            let device = DeviceRecord(properties: properties)
            devices[path] = device
            device.sighting(device: path, wanted: wanted).map(consumer)
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

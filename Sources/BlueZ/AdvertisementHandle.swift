import DBus
import Synchronization
import Threads

extension Adapter {
    /// Advertises `advertisement` on this adapter until the handle is stopped.
    ///
    /// Exports an `org.bluez.LEAdvertisement1` object that only the owner of
    /// `org.bluez` may call, and registers it with `LEAdvertisingManager1`. Returns
    /// once BlueZ has accepted it. Throws `.notPowered` when the adapter is off,
    /// `.noAdvertisingSlot` when every instance is taken, `.adapterNotFound`,
    /// `.accessDenied`, `.bluetoothdAbsent`.
    public func advertise(_ advertisement: Advertisement) async throws -> AdvertisementHandle {
        // The kernel stores an advertisement for a powered-off adapter without a word,
        // so the caller would advertise nothing and never know: say it here.
        let powered = try await BlueZError.mapping {
            try await bus.call(
                destination: ObjectManager.service, path: path, interface: ObjectManager.properties, member: "Get",
                Self.interface, "Powered"
            ).decode(Value.self)
        }
        guard powered.bool == true else {
            throw BlueZError(.notPowered, message: "Bluetooth adapter \(name) is powered off")
        }
        let handle = try await AdvertisementHandle.export(advertisement, on: self)
        try await handle.register()
        return handle
    }
}

/// A registered advertisement: its lifetime is the registration.
///
/// `update(localName:manufacturerData:)` changes what is on the air (a
/// `PropertiesChanged` that BlueZ re-reads, no re-registration);
/// `announceAgain()` puts the same advertisement on the air again, and
/// `announceNextPart()` the manufacturer data's next part; `stop()` unregisters. If BlueZ drops the
/// advertisement first, `events` reports why. Dropping the handle unregisters too.
public final class AdvertisementHandle: Sendable {
    /// The adapter advertising.
    public let adapter: Adapter
    /// The exported object's path.
    public let path: ObjectPath
    /// How the advertisement ended without `stop()`: one value, then the sequence ends.
    public let events: AsyncStream<AdvertisementEnd>

    private let object: ExportedObject
    private let state: Mutex<State>
    private let eventsContinuation: AsyncStream<AdvertisementEnd>.Continuation
    private let watcher: Mutex<Task<Void, Never>?> = Mutex(nil)

    private struct State {
        var advertisement: Advertisement
        /// Which part of the manufacturer data is on the air.
        var position = 0
        /// Whether the manufacturer data waits for the next announcement
        /// (`awaitAnnouncement`): BlueZ has older data.
        var awaited = false
        var registered = false
        var ended = false
    }

    private static let counter = Atomic<Int>(0)

    /// Exports the object; `register()` then hands it to BlueZ.
    static func export(_ advertisement: Advertisement, on adapter: Adapter) async throws -> AdvertisementHandle {
        let number = counter.add(1, ordering: .relaxed).newValue
        // Object paths are per connection: a counter keeps ours apart.
        let path = ObjectPath("/org/bluez_swift/advertisement\(number)")!
        // A weak reference breaks the cycle handle -> object -> handler -> handle.
        let release = WeakBox<AdvertisementHandle>()
        let object = try await BlueZError.mapping {
            try await adapter.bus.export(
                path,
                interfaces: [
                    Interface(
                        Advertisement.interface,
                        methods: [
                            Method("Release") { _ in
                                release.value?.end(.released)
                                return []
                            }
                        ],
                        properties: advertisement.properties(position: 0).sorted { $0.key < $1.key }.map { Property($0.key, $0.value) })
                ],
                caller: .owner(of: ObjectManager.service))
        }
        let handle = AdvertisementHandle(adapter: adapter, path: path, object: object, advertisement: advertisement)
        release.value = handle
        return handle
    }

    private init(adapter: Adapter, path: ObjectPath, object: ExportedObject, advertisement: Advertisement) {
        self.adapter = adapter
        self.path = path
        self.object = object
        state = Mutex(State(advertisement: advertisement))
        (events, eventsContinuation) = AsyncStream.makeStream()
    }

    deinit {
        watcher.withLock { $0?.cancel() }
        let wasRegistered = state.withLock { $0.registered && !$0.ended }
        object.unexport()
        eventsContinuation.finish()
        guard wasRegistered else { return }
        // Nobody can wait here: unregister and move on.
        let (adapter, path) = (self.adapter, self.path)
        Task(executorPreference: SessionLoop.current) { try? await adapter.advertisingCall("UnregisterAdvertisement", path) }
    }

    /// The advertisement as it is now.
    public var advertisement: Advertisement { state.withLock { $0.advertisement } }

    /// Registers with BlueZ and starts watching for bluetoothd leaving.
    func register() async throws {
        let owners = try await BlueZError.mapping { try await adapter.bus.nameOwner(of: ObjectManager.service) }
        do {
            try await adapter.advertisingCall("RegisterAdvertisement", path, [String: Value]())
        } catch {
            object.unexport()
            throw error
        }
        state.withLock { $0.registered = true }
        watcher.withLock {
            $0 = Task(executorPreference: SessionLoop.current) { [weak self] in
                var first = true
                do {
                    for try await owner in owners {
                        // The stream starts with the owner we registered with.
                        defer { first = false }
                        if first, owner != nil { continue }
                        self?.end(.bluetoothdGone)
                        return
                    }
                } catch {
                    self?.end(.bluetoothdGone)
                }
            }
        }
    }

    /// Changes the advertised local name and manufacturer data. BlueZ reads
    /// the new values at once. New manufacturer data goes on the air from
    /// its first part that differs from the old data's part at the same
    /// place, and turns on from there (from its first part when the number
    /// of parts changed): a change of one part goes out at once without
    /// starting the turn again, so the parts after it still come round. A
    /// new local name alone leaves the part on the air.
    ///
    /// Throws `.released` when the advertisement has ended.
    public func update(localName: String, manufacturerData: RotatingManufacturerData?) async throws {
        let (ended, changes) = state.withLock { state -> (Bool, [String: Value]) in
            guard !state.ended else { return (true, [:]) }
            var changes: [String: Value] = ["LocalName": .string(localName)]
            let old = state.awaited ? nil : state.advertisement.manufacturerData
            state.awaited = false
            if old != manufacturerData {
                let (before, after) = (old?.parts ?? [], manufacturerData?.parts ?? [])
                state.position = before.count == after.count && old?.company == manufacturerData?.company
                    ? before.indices.first { before[$0] != after[$0] } ?? 0 : 0
                changes["ManufacturerData"] = Advertisement.manufacturerValue(manufacturerData, position: state.position)
            }
            state.advertisement.localName = localName
            state.advertisement.manufacturerData = manufacturerData
            return (false, changes)
        }
        if ended { throw BlueZError(.released, message: "the advertisement has ended") }
        do {
            try object.setProperties(changes, interface: Advertisement.interface)
        } catch {
            throw BlueZError(error)
        }
    }

    /// Takes `manufacturerData` without telling BlueZ: it goes on the air
    /// from its first part with the next announcement or change, so that data that may wait costs no announcement of its own.
    ///
    /// Throws `.released` when the advertisement has ended.
    public func awaitAnnouncement(_ manufacturerData: RotatingManufacturerData?) throws {
        let ended = state.withLock { state -> Bool in
            guard !state.ended else { return true }
            if state.advertisement.manufacturerData != manufacturerData {
                state.advertisement.manufacturerData = manufacturerData
                state.awaited = true
            }
            return false
        }
        if ended { throw BlueZError(.released, message: "the advertisement has ended") }
    }

    /// Has BlueZ program the advertisement into the controller again as it
    /// is, the same part of the manufacturer data (a change's second
    /// announcement, for peers that missed the first), or its first part
    /// when the data awaited this announcement: advertising starts afresh,
    /// which every peer scanning at that moment reports. Controllers that
    /// filter duplicates strictly (and the emulated ones) otherwise report
    /// a steady advertiser only when their scan starts, and Linux drops a
    /// report that races the start of a discovery.
    ///
    /// Returns once bluetoothd has read it (see `synchronize`): the one thing
    /// a caller waits for, to scan again without the controller refusing it.
    /// Throws `.released` when the advertisement has ended.
    public func announceAgain() async throws {
        try await announce(movingOn: false)
    }

    /// Announces again as `announceAgain()` does, with the manufacturer
    /// data's next part when it has more than one: the parts take turns.
    public func announceNextPart() async throws {
        try await announce(movingOn: true)
    }

    private func announce(movingOn: Bool) async throws {
        let (ended, next) = state.withLock { state -> (Bool, Value?) in
            guard !state.ended else { return (true, nil) }
            let awaited = state.awaited
            state.awaited = false
            guard let data = state.advertisement.manufacturerData, awaited || movingOn && data.parts.count > 1 else {
                return (false, nil)
            }
            state.position = awaited ? 0 : (state.position + 1) % data.parts.count
            return (false, Advertisement.manufacturerValue(data, position: state.position))
        }
        if ended { throw BlueZError(.released, message: "the advertisement has ended") }
        do {
            if let next {
                try object.setProperty("ManufacturerData", next, interface: Advertisement.interface)
            } else {
                try object.repeatProperties(["LocalName"], interface: Advertisement.interface)
            }
        } catch {
            throw BlueZError(error)
        }
        try await synchronize()
    }

    /// Returns once bluetoothd has read every change made before the call.
    ///
    /// A change is a signal, with no reply to wait for; but the bus delivers
    /// one connection's messages in order and bluetoothd handles them in turn,
    /// so the answer to a `Peer.Ping` sent after it comes once bluetoothd has
    /// taken the change and passed it to the kernel. Scanning must stay off
    /// until then (see `Discovery.pause`), and a loaded bluetoothd can take
    /// 0.2 s to get there, so no fixed pause is safe
    /// (docs/ARCHITECTURE.md, Radio schedule).
    public func synchronize() async throws {
        try await BlueZError.mapping {
            _ = try await adapter.bus.call(
                destination: ObjectManager.service, path: adapter.path, interface: "org.freedesktop.DBus.Peer",
                member: "Ping")
        }
    }

    /// Unregisters the advertisement. Safe to call more than once, and after BlueZ
    /// released it.
    public func stop() async {
        let wasRegistered = state.withLock { state in
            defer { state.ended = true }
            return state.registered && !state.ended
        }
        watcher.withLock { $0?.cancel() }
        if wasRegistered { try? await adapter.advertisingCall("UnregisterAdvertisement", path) }
        object.unexport()
        eventsContinuation.finish()
    }

    /// BlueZ dropped the advertisement (or left): report it once.
    private func end(_ reason: AdvertisementEnd) {
        let first = state.withLock { state in
            defer { state.ended = true }
            return !state.ended
        }
        guard first else { return }
        object.unexport()
        eventsContinuation.yield(reason)
        eventsContinuation.finish()
    }
}

extension Adapter {
    /// Calls a method of `LEAdvertisingManager1` on this adapter.
    func advertisingCall<each Argument: DBusEncodable>(_ member: String, _ arguments: repeat each Argument) async throws {
        try await BlueZError.mapping {
            _ = try await bus.call(
                destination: ObjectManager.service, path: path, interface: Self.advertisingInterface, member: member,
                repeat each arguments)
        }
    }
}

/// A weak reference that can be shared with `Sendable` closures.
final class WeakBox<T: AnyObject & Sendable>: Sendable {
    private let storage = Mutex<WeakReference?>(nil)
    private struct WeakReference: @unchecked Sendable { weak var object: T? }

    var value: T? {
        get { storage.withLock { $0?.object } }
        set { storage.withLock { $0 = WeakReference(object: newValue) } }
    }
}

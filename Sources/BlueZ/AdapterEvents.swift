import DBus
import Synchronization
import Threads

/// A change to the set of adapters or to one adapter.
public enum AdapterEvent: Sendable, Hashable {
    /// An adapter appeared (plugged in, or bluetoothd started).
    case added(Adapter)
    /// The adapter with this name (`hci1`) went away (unplugged, or bluetoothd left).
    case removed(String)
    /// An adapter's properties changed: powered on or off, discovering, advertising
    /// slots (including its advertising manager coming or going).
    case changed(Adapter)
}

extension BlueZ {
    /// Adapter additions, removals and changes, from now on; of the adapter
    /// `named` alone when given. Returns once subscribed.
    ///
    /// bluetoothd leaving (even by a crash) shows as every adapter removed, and
    /// starting again as adapters added. The stream ends with a `BlueZError` if the
    /// bus connection ends.
    ///
    /// Every adapter's events come with every device's addition and removal
    /// (the bus cannot tell an adapter's path from a device's by its prefix):
    /// a follower of one adapter names it, and the bus sends it that
    /// adapter's alone.
    public func adapterEvents(named name: String? = nil) async throws -> AsyncThrowingStream<AdapterEvent, any Error> {
        let manager = ObjectManager(bus: bus)
        // A name that makes no object path names no adapter: every adapter's
        // events then come, and none of them is that name's.
        let adapter = name.flatMap { ObjectPath("/org/bluez/\($0)") }
        let changes = try await manager.changes(
            under: adapter ?? "/org/bluez", subtree: adapter == nil,
            interfaces: [Adapter.interface, Adapter.advertisingInterface])
        let bus = self.bus
        let owners = try await BlueZError.mapping { try await bus.nameOwner(of: ObjectManager.service) }
        // No snapshot when bluetoothd is absent: its adapters arrive as additions.
        let adapters = AdapterSet(bus: bus, objects: (try? await manager.objects()) ?? [:])
        let (stream, continuation) = AsyncThrowingStream<AdapterEvent, any Error>.makeStream()
        let task = Task(executorPreference: SessionLoop.current) {
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await change in changes {
                            for event in adapters.apply(change) { continuation.yield(event) }
                        }
                    }
                    group.addTask {
                        for try await owner in owners where owner == nil {
                            for event in adapters.removeAll() { continuation.yield(event) }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: (error as? DBusError).map(BlueZError.init) ?? error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// The adapters known to an event stream, changed from two tasks.
private final class AdapterSet: Sendable {
    private let bus: Connection
    private let cache: Mutex<ObjectCache>

    init(bus: Connection, objects: [ObjectPath: InterfaceProperties]) {
        self.bus = bus
        cache = Mutex(ObjectCache(objects.filter { Self.isAdapter($0.key) }))
    }

    /// Only adapters themselves (/org/bluez/hciN), not the devices below them.
    static func isAdapter(_ path: ObjectPath) -> Bool { path.rawValue.split(separator: "/").count == 3 }

    static func name(_ path: ObjectPath) -> String { String(path.rawValue.split(separator: "/").last ?? "") }

    func apply(_ change: ObjectChange) -> [AdapterEvent] {
        let path = change.path
        guard Self.isAdapter(path) else { return [] }
        return cache.withLock { cache in
            let had = cache[path, Adapter.interface] != nil
            cache.apply(change)
            let adapter = cache.objects[path].flatMap { Adapter(path: path, interfaces: $0, bus: bus) }
            switch (had, adapter) {
            case (false, let adapter?): return [.added(adapter)]
            case (true, nil): return [.removed(Self.name(path))]
            case (true, let adapter?):
                // bluetoothd adds LEAdvertisingManager1 to an adapter after Adapter1:
                // an interface coming or going is a change too.
                if case .propertiesChanged(_, let interface, _, _) = change,
                    interface != Adapter.interface, interface != Adapter.advertisingInterface
                { return [] }
                return [.changed(adapter)]
            case (false, nil): return []
            }
        }
    }

    func removeAll() -> [AdapterEvent] {
        cache.withLock { cache in
            let names = cache.objects.keys.filter { cache[$0, Adapter.interface] != nil }.sorted().map(Self.name)
            cache = ObjectCache()
            return names.map(AdapterEvent.removed)
        }
    }
}

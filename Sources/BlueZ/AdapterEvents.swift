import DBus

/// A change to the set of adapters or to one adapter.
public enum AdapterEvent: Sendable, Hashable {
    /// An adapter appeared (plugged in, or bluetoothd started).
    case added(Adapter)
    /// The adapter with this name (`hci1`) went away.
    case removed(String)
    /// An adapter's properties changed: powered on or off, discovering, advertising slots.
    case changed(Adapter)
}

extension BlueZ {
    /// Adapter additions, removals and changes, from now on. Returns once subscribed.
    ///
    /// The stream ends with a `BlueZError` if the bus connection ends. bluetoothd
    /// stopping shows as every adapter removed, starting again as adapters added.
    public func adapterEvents() async throws -> AsyncThrowingStream<AdapterEvent, any Error> {
        let manager = ObjectManager(bus: bus)
        let changes = try await manager.changes(under: "/org/bluez")
        let bus = self.bus
        // No snapshot when bluetoothd is absent: its adapters arrive as additions.
        var cache = ObjectCache((try? await manager.objects()) ?? [:])
        let (stream, continuation) = AsyncThrowingStream<AdapterEvent, any Error>.makeStream()
        let task = Task {
            do {
                // Only adapters themselves (/org/bluez/hciN), not the devices below them.
                for try await change in changes where change.path.rawValue.split(separator: "/").count == 3 {
                    let path = change.path
                    let hadAdapter = cache[path, Adapter.interface] != nil
                    cache.apply(change)
                    let adapter = cache.objects[path].flatMap { Adapter(path: path, interfaces: $0, bus: bus) }
                    switch (hadAdapter, adapter) {
                    case (false, let adapter?): continuation.yield(.added(adapter))
                    case (true, nil): continuation.yield(.removed(String(path.rawValue.split(separator: "/").last ?? "")))
                    case (true, let adapter?):
                        if case .propertiesChanged(_, let interface, _, _) = change,
                            interface == Adapter.interface || interface == Adapter.advertisingInterface
                        {
                            continuation.yield(.changed(adapter))
                        }
                    case (false, nil): break
                    }
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

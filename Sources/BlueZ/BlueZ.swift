import DBus

/// The way into BlueZ (`org.bluez` on the system bus): adapters and their events,
/// and whether bluetoothd is there at all.
///
///     let bluez = try await BlueZ.system()
///     let adapter = try await bluez.adapter("hci0")       // nil: first powered one
///     let ad = try await adapter.advertise(Advertisement(serviceUUIDs: [uuid], localName: "hello"))
///
/// Every failure is a `BlueZError`.
public struct BlueZ: Sendable {
    /// The bus BlueZ is on.
    public let bus: Connection

    /// BlueZ on an existing connection (a test's private bus, say).
    public init(bus: Connection) { self.bus = bus }

    /// BlueZ on the system bus.
    public static func system() async throws -> BlueZ {
        do {
            return BlueZ(bus: try await Connection.system())
        } catch let error as DBusError {
            let mapped = BlueZError(error)
            // Any failure to connect means the bus is not usable, whatever libdbus called it.
            throw mapped.kind == .accessDenied ? mapped : BlueZError(.busUnavailable, name: error.name, message: mapped.message)
        }
    }

    /// Every adapter, ordered by name (`hci0`, `hci1`, …).
    public func adapters() async throws -> [Adapter] {
        let objects = try await ObjectManager(bus: bus).objects()
        return objects.compactMap { Adapter(path: $0.key, interfaces: $0.value, bus: bus) }
            .sorted { $0.name.count != $1.name.count ? $0.name.count < $1.name.count : $0.name < $1.name }
    }

    /// The adapter `selector` names (`hci0`, or an address); without one, the first
    /// powered adapter, else the first adapter (so the caller can say it is off).
    public func adapter(_ selector: String? = nil) async throws -> Adapter {
        let all = try await adapters()
        if let selector {
            guard let adapter = all.first(where: { $0.matches(selector) }) else {
                throw BlueZError(.adapterNotFound, message: "no Bluetooth adapter \(selector)")
            }
            return adapter
        }
        guard let adapter = all.first(where: \.isPowered) ?? all.first else {
            throw BlueZError(.adapterNotFound, message: "no Bluetooth adapter")
        }
        return adapter
    }
}

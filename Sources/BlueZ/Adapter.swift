import DBus

/// A Bluetooth adapter as BlueZ saw it when this value was made (`org.bluez.Adapter1`),
/// and the way to advertise and discover on it.
///
/// The properties are a snapshot; `refreshed()` reads them again, and
/// `BlueZ.adapterEvents()` reports changes.
public struct Adapter: Sendable, Hashable, CustomStringConvertible {
    static let interface = "org.bluez.Adapter1"
    static let advertisingInterface = "org.bluez.LEAdvertisingManager1"

    /// BlueZ's object path, such as `/org/bluez/hci0`.
    public let path: ObjectPath
    /// The kernel's name for it: `hci0`.
    public var name: String { String(path.rawValue.split(separator: "/").last ?? "") }
    /// The public or static address, `AA:BB:CC:DD:EE:FF`.
    public let address: String
    /// The name it shows to others.
    public let alias: String
    /// Whether it is powered on.
    public let isPowered: Bool
    /// Whether a discovery is running (anyone's, not only ours).
    public let isDiscovering: Bool
    /// Its LE advertising slots, or nil if it cannot advertise (no LEAdvertisingManager1).
    public let advertising: AdvertisingCapacity?

    let bus: Connection

    /// Reads an adapter out of its interfaces; nil when it has no `Adapter1`.
    init?(path: ObjectPath, interfaces: InterfaceProperties, bus: Connection) {
        guard let properties = interfaces[Self.interface] else { return nil }
        self.path = path
        self.address = properties["Address"]?.string ?? ""
        self.alias = properties["Alias"]?.string ?? properties["Name"]?.string ?? ""
        self.isPowered = properties["Powered"]?.bool ?? false
        self.isDiscovering = properties["Discovering"]?.bool ?? false
        self.advertising = interfaces[Self.advertisingInterface].map(AdvertisingCapacity.init)
        self.bus = bus
    }

    /// The same adapter, its properties read again.
    public func refreshed() async throws -> Adapter {
        let objects = try await ObjectManager(bus: bus).objects()
        guard let interfaces = objects[path], let adapter = Adapter(path: path, interfaces: interfaces, bus: bus) else {
            throw BlueZError(.adapterNotFound, message: "adapter \(name) is gone")
        }
        return adapter
    }

    /// Whether `selector` (`hci0` or an address, any case) names this adapter.
    public func matches(_ selector: String) -> Bool {
        name == selector || address.uppercased() == selector.uppercased()
    }

    public var description: String { "\(name) \(address)" }

    public static func == (lhs: Adapter, rhs: Adapter) -> Bool {
        lhs.path == rhs.path && lhs.address == rhs.address && lhs.alias == rhs.alias
            && lhs.isPowered == rhs.isPowered && lhs.isDiscovering == rhs.isDiscovering
            && lhs.advertising == rhs.advertising
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(path) }
}

/// An adapter's LE advertising instances (`LEAdvertisingManager1`).
public struct AdvertisingCapacity: Sendable, Hashable {
    /// How many advertisements the controller can hold at once.
    public let supported: Int
    /// How many are registered now (by anyone).
    public let active: Int
    /// How many more can be registered.
    public var free: Int { max(0, supported - active) }
    /// Whether the controller has extended advertising, where each
    /// advertising set has its own random address, set without stopping a
    /// scan. Without it (legacy advertising) the controller refuses a new
    /// random address while it scans, so every change needs scanning paused.
    ///
    /// BlueZ 5.66 says so in two places: `SupportedSecondaryChannels`, which
    /// it has only when the kernel reports a secondary PHY (1M always comes
    /// with extended advertising), and `HardwareOffload` in
    /// `SupportedFeatures`, which it shows only to a bluetoothd run with
    /// `--experimental` (Debian's runs without).
    public let extended: Bool

    public init(supported: Int, active: Int, extended: Bool = false) {
        self.supported = supported
        self.active = active
        self.extended = extended
    }

    /// The capacity the adapter's `properties` (org.bluez.LEAdvertisingManager1) report.
    package init(_ properties: [String: Value]) {
        let features = properties["SupportedFeatures"]?.elements ?? []
        let secondary = properties["SupportedSecondaryChannels"]?.elements ?? []
        self.init(
            supported: Int(properties["SupportedInstances"]?.integer ?? 0),
            active: Int(properties["ActiveInstances"]?.integer ?? 0),
            extended: features.contains { $0.string == "HardwareOffload" } || !secondary.isEmpty)
    }
}

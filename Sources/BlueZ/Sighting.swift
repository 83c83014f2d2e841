import DBus

/// One reception of an advertiser during a discovery.
///
/// Everything in it came over the air and is untrusted. `localName` is BlueZ's
/// `Name` property: BlueZ 5.66 passes a valid UTF-8 name through unchanged, and
/// for an invalid one replaces every non-ASCII byte with a space and trims the
/// ends; it does not expose the raw name bytes anywhere on D-Bus (its
/// `AdvertisingData` property leaves the name types out), so the original bytes
/// of an invalid name cannot be had.
public struct Sighting: Sendable, Hashable {
    /// BlueZ's object for the advertiser. Random addresses rotate, so one
    /// advertiser may show up under several objects over time.
    public let device: ObjectPath
    /// The advertiser's address (`AA:BB:CC:DD:EE:FF`) at the time.
    public let address: String
    /// The advertised local name, if any (see above for invalid UTF-8).
    public let localName: String?
    /// Signal strength in dBm; nil when the controller did not measure it (it
    /// reports 127, as the emulated radios of the rig always do).
    public let rssi: Int?
    /// The service UUIDs BlueZ has collected for the device, lowercase.
    public let serviceUUIDs: [String]
    /// Whether the advertisement's flags say LE Limited or General
    /// Discoverable (BlueZ's `AdvertisingFlags`): an iPhone's app
    /// advertises so, and BlueZ refuses the flags to a broadcast
    /// advertisement such as estimator's.
    public let isDiscoverable: Bool
    /// The manufacturer data of company 0xFFFF (`unassignedCompany`) BlueZ
    /// holds for the device, as it came over the air; empty when it has none.
    public let manufacturerData: [UInt8]

    public init(
        device: ObjectPath, address: String, localName: String?, rssi: Int?, serviceUUIDs: [String],
        isDiscoverable: Bool = false, manufacturerData: [UInt8] = []
    ) {
        self.device = device
        self.address = address
        self.localName = localName
        self.rssi = rssi
        self.serviceUUIDs = serviceUUIDs
        self.isDiscoverable = isDiscoverable
        self.manufacturerData = manufacturerData
    }

    /// The company identifier the Bluetooth SIG keeps for none assigned:
    /// the one manufacturer data a sighting reports.
    public static let unassignedCompany: UInt16 = 0xFFFF

    static let deviceInterface = "org.bluez.Device1"
    /// HCI's "RSSI not available".
    static let rssiUnavailable: Int64 = 127
    /// The flags' LE Limited and LE General Discoverable bits (Core
    /// Specification Supplement, Part A, 1.3).
    static let discoverableFlags: UInt8 = 0x03

    /// A sighting from a `Device1`'s properties, or nil when it has no signal
    /// strength (a remembered device, not one on the air) or lacks every wanted UUID.
    package init?(device: ObjectPath, properties: [String: Value], wanted: Set<String>) {
        guard let sighting = DeviceRecord(properties: properties).sighting(device: device, wanted: wanted)
        else { return nil }
        self = sighting
    }
}

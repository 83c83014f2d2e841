import DBus

/// What to advertise: an `org.bluez.LEAdvertisement1` of type `broadcast`.
///
/// BlueZ 5.66 puts `LocalName` in the scan response, so scanners read it with
/// active scanning (BlueZ's default), and cuts it if it does not fit.
/// `ManufacturerData` goes in the advertising data, beside the service
/// UUIDs, and must fit there with them.
public struct Advertisement: Sendable, Hashable {
    /// Service UUIDs in the advertising data (scanners filter on them).
    public var serviceUUIDs: [String]
    /// The local name.
    public var localName: String
    /// Manufacturer data that changes at each announcement, when there is
    /// any (`AdvertisementHandle.announceNextPart`).
    public var manufacturerData: RotatingManufacturerData?
    /// The advertising interval (`MinInterval`/`MaxInterval`, 20 ms at least).
    /// BlueZ 5.66 reads them only when bluetoothd runs with `--experimental` and
    /// ignores them otherwise; nil leaves the interval to BlueZ.
    public var interval: ClosedRange<Duration>?

    public init(serviceUUIDs: [String], localName: String, manufacturerData: RotatingManufacturerData? = nil,
                interval: ClosedRange<Duration>? = nil) {
        self.serviceUUIDs = serviceUUIDs
        self.localName = localName
        self.manufacturerData = manufacturerData
        self.interval = interval
    }

    package static let interface = "org.bluez.LEAdvertisement1"

    /// The object's properties, as BlueZ reads them with `GetAll`, with the
    /// manufacturer data's part `position` on the air. `ManufacturerData`
    /// is there even when empty, so that it can be set later.
    func properties(position: Int) -> [String: Value] {
        var properties: [String: Value] = [
            "Type": .string("broadcast"),
            "ServiceUUIDs": .array(element: .string, serviceUUIDs.map { .string($0) }),
            "LocalName": .string(localName),
            "ManufacturerData": Self.manufacturerValue(manufacturerData, position: position),
        ]
        if let interval {
            properties["MinInterval"] = .uint32(Self.milliseconds(interval.lowerBound))
            properties["MaxInterval"] = .uint32(Self.milliseconds(interval.upperBound))
        }
        return properties
    }

    /// `ManufacturerData` (`a{qv}`, each value an `ay`) holding `data`'s
    /// part `position`; empty without data.
    static func manufacturerValue(_ data: RotatingManufacturerData?, position: Int) -> Value {
        var entries: [Value: Value] = [:]
        if let data, data.parts.indices.contains(position) {
            entries[.uint16(data.company)] = .variant(.array(element: .byte, data.parts[position].map { .byte($0) }))
        }
        return .dictionary(key: .uint16, value: .variant, entries)
    }

    private static func milliseconds(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        return UInt32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}

/// Manufacturer-specific data of `company` that goes on the air one part
/// at a time: the first part at registration and after each change of the
/// parts, the next at each announcement (`AdvertisementHandle.announceNextPart`),
/// round and round.
public struct RotatingManufacturerData: Sendable, Hashable {
    /// The company identifier (0xFFFF: none assigned).
    public var company: UInt16
    /// The parts, in the order they go on the air.
    public var parts: [[UInt8]]

    public init(company: UInt16, parts: [[UInt8]]) {
        self.company = company
        self.parts = parts
    }
}

/// Why an advertisement ended without `stop()`.
public enum AdvertisementEnd: Sendable, Hashable {
    /// BlueZ called `Release`: it dropped the advertisement (adapter removed or
    /// powered down, or bluetoothd shutting down).
    case released
    /// bluetoothd left the bus without a word (it crashed or was killed).
    case bluetoothdGone
}

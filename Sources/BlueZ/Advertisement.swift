import DBus

/// What to advertise: an `org.bluez.LEAdvertisement1` of type `broadcast`.
///
/// BlueZ 5.66 puts `LocalName` in the scan response, so scanners read it with
/// active scanning (BlueZ's default), and cuts it if it does not fit.
public struct Advertisement: Sendable, Hashable {
    /// Service UUIDs in the advertising data (scanners filter on them).
    public var serviceUUIDs: [String]
    /// The local name.
    public var localName: String
    /// The advertising interval (`MinInterval`/`MaxInterval`, 20 ms at least).
    /// BlueZ 5.66 reads them only when bluetoothd runs with `--experimental` and
    /// ignores them otherwise; nil leaves the interval to BlueZ.
    public var interval: ClosedRange<Duration>?

    public init(serviceUUIDs: [String], localName: String, interval: ClosedRange<Duration>? = nil) {
        self.serviceUUIDs = serviceUUIDs
        self.localName = localName
        self.interval = interval
    }

    package static let interface = "org.bluez.LEAdvertisement1"

    /// The object's properties, as BlueZ reads them with `GetAll`.
    var properties: [String: Value] {
        var properties: [String: Value] = [
            "Type": .string("broadcast"),
            "ServiceUUIDs": .array(element: .string, serviceUUIDs.map { .string($0) }),
            "LocalName": .string(localName),
        ]
        if let interval {
            properties["MinInterval"] = .uint32(Self.milliseconds(interval.lowerBound))
            properties["MaxInterval"] = .uint32(Self.milliseconds(interval.upperBound))
        }
        return properties
    }

    private static func milliseconds(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        return UInt32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
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

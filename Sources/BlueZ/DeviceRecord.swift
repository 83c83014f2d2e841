import DBus

/// What a discovery keeps of one `Device1`: only the properties a sighting
/// reports. A room's every reception is a `PropertiesChanged` on a device, so
/// its changes are read straight off the message, decoding only these keys:
/// decoding every property into dictionaries and merging them into a copy of
/// BlueZ's object tree costs most of a session's work (make bench-session;
/// docs/MEASUREMENTS.md, session).
package struct DeviceRecord: Sendable {
    var address = ""
    var name: String?
    var rssi: Int64?
    /// Lowercase.
    var uuids: [String] = []
    /// The advertisement's flags byte (0 when it has none).
    var flags: UInt8 = 0
    /// The manufacturer data of company 0xFFFF (`Sighting.unassignedCompany`);
    /// empty when it has none.
    var manufacturerData: [UInt8] = []
    /// Paired, trusted or connected, by key: a device someone keeps.
    var kept: Set<String> = []

    /// A record of nothing yet.
    package init() {}

    /// A record of the device's `properties`, as BlueZ reports them.
    package init(properties: [String: Value]) {
        for (key, value) in properties { set(key, value) }
    }

    private mutating func set(_ key: String, _ value: Value?) {
        switch key {
        case "Address": address = value?.string ?? ""
        case "Name": name = value?.string
        case "RSSI": rssi = value?.integer
        case "UUIDs": uuids = (value?.elements ?? []).compactMap { $0.string?.lowercased() }
        case "AdvertisingFlags":
            if case let .byte(first)? = value?.elements?.first { flags = first } else { flags = 0 }
        case "ManufacturerData":
            manufacturerData = []
            if case let .dictionary(_, _, entries)? = value?.unwrapped,
               let bytes = entries[.uint16(Sighting.unassignedCompany)]?.unwrapped.elements {
                manufacturerData = bytes.compactMap { if case let .byte(byte) = $0 { byte } else { nil } }
            }
        case "Paired", "Trusted", "Connected":
            if value?.unwrapped == .boolean(true) { kept.insert(key) } else { kept.remove(key) }
        default: break
        }
    }

    /// Applies a `PropertiesChanged`'s changed and invalidated properties,
    /// read from `reader` (just after the interface name). Returns whether the
    /// change means the device was heard again: a change of RSSI, Name, UUIDs,
    /// ManufacturerData, ServiceData or TxPower.
    package mutating func apply(_ reader: inout MessageReader) throws(DBusError) -> Bool {
        var heard = false
        // Each value is read from inside its variant: `readValue` would box it in an
        // indirect `.variant` (a heap allocation per property per signal).
        try reader.readDictionary(keyType: String.self, valueType: .variant) { key, value throws(DBusError) in
            switch key {
            case "RSSI", "Name", "UUIDs":
                heard = true
                set(key, try value.readVariant { content throws(DBusError) in try content.readValue() })
            case "Address", "AdvertisingFlags", "Paired", "Trusted", "Connected":
                set(key, try value.readVariant { content throws(DBusError) in try content.readValue() })
            case "ManufacturerData":
                // Only company 0xFFFF's bytes, copied in one go; the others
                // (an iPhone's Apple data) are skipped unread.
                heard = true
                manufacturerData = []
                try value.readVariant { content throws(DBusError) in
                    try content.readDictionary(keyType: UInt16.self, valueType: .variant) { company, entry throws(DBusError) in
                        guard company == Sighting.unassignedCompany else { return entry.skip() }
                        // Bytes of another type are no data, as a wrong RSSI is no signal.
                        manufacturerData = (try? entry.readVariant { bytes throws(DBusError) in try bytes.read([UInt8].self) }) ?? []
                    }
                }
            case "ServiceData", "TxPower":
                heard = true
                value.skip()
            default:
                value.skip()
            }
        }
        try reader.readArray(of: .string) { element throws(DBusError) in set(try element.read(String.self), nil) }
        return heard
    }

    /// Applies a `PropertiesChanged` (see `apply`) and returns the sighting it
    /// means, if any: what a discovery does with each signal, in one call so a
    /// record kept in a dictionary is changed in place.
    mutating func sighting(applying reader: inout MessageReader, device: ObjectPath, wanted: Set<String>) -> Sighting? {
        guard (try? apply(&reader)) == true else { return nil }
        return sighting(device: device, wanted: wanted)
    }

    /// Whether the advertisement says LE Limited or General Discoverable.
    var isDiscoverable: Bool { flags & Sighting.discoverableFlags != 0 }

    /// Whether BlueZ holds the device only because it was heard: not
    /// paired, trusted or connected, so removing it loses nothing.
    var isTemporary: Bool { kept.isEmpty }

    /// Whether it advertises one of `wanted` (any device when empty).
    func offers(_ wanted: Set<String>) -> Bool { wanted.isEmpty || !wanted.isDisjoint(with: uuids) }

    /// A sighting, or nil when it has no signal strength (a remembered
    /// device, not one on the air) or lacks every wanted UUID.
    package func sighting(device: ObjectPath, wanted: Set<String>) -> Sighting? {
        guard let rssi else { return nil }
        guard offers(wanted) else { return nil }
        return Sighting(device: device, address: address, localName: name,
                        rssi: rssi == Sighting.rssiUnavailable ? nil : Int(rssi), serviceUUIDs: uuids,
                        isDiscoverable: isDiscoverable, manufacturerData: manufacturerData)
    }
}

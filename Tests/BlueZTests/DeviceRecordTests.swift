import BlueZ
import DBus
import Testing

/// A discovery's record of a device, updated straight from `PropertiesChanged`.
@Suite struct DeviceRecordTests {
    let uuid = "fb3367fd-09f8-4e08-9f6b-07e309fd2576"

    /// A `PropertiesChanged` on Device1, read up to its changed properties.
    private func changes(_ changed: [String: Value], invalidated: [String] = []) throws -> MessageReader {
        let message = try Message.signal(path: "/org/bluez/hci0/dev_1", interface: "org.freedesktop.DBus.Properties",
                                         member: "PropertiesChanged")
        try message.append("org.bluez.Device1", changed, invalidated)
        var reader = message.makeReader()
        #expect(try reader.read(String.self) == "org.bluez.Device1")
        return reader
    }

    @Test func appliesTheKeysItKeepsAndSkipsTheRest() throws {
        var device = DeviceRecord(properties: [
            "Address": .string("11:22:33:44:55:66"), "Name": .string("010105A"), "RSSI": .int16(-40),
            "UUIDs": .array(element: .string, [.string(uuid.uppercased())]),
        ])
        var reader = try changes([
            "RSSI": .int16(-61),
            "ManufacturerData": .dictionary(key: .uint16, value: .variant, [.uint16(76): .variant(.array(element: .byte, [.byte(1)]))]),
            "Paired": .boolean(false),
        ], invalidated: ["Name"])
        #expect(try device.apply(&reader), "an RSSI change is a reception")
        let readAll = reader.isAtEnd
        #expect(readAll, "the invalidated names too")
        let sighting = try #require(device.sighting(device: "/org/bluez/hci0/dev_1", wanted: [uuid]))
        #expect(sighting.rssi == -61)
        #expect(sighting.localName == nil, "invalidated")
        #expect(sighting.address == "11:22:33:44:55:66")
        #expect(sighting.serviceUUIDs == [uuid])
    }

    @Test func aChangeThatIsNoReceptionSaysSo() throws {
        var device = DeviceRecord()
        var reader = try changes(["Connected": .boolean(false)])
        #expect(try !device.apply(&reader))
        #expect(device.sighting(device: "/org/bluez/hci0/dev_1", wanted: []) == nil, "never heard")
    }

    @Test func aHostileShapeIsAnErrorNotATrap() throws {
        let message = try Message.signal(path: "/org/bluez/hci0/dev_1", interface: "org.freedesktop.DBus.Properties",
                                         member: "PropertiesChanged")
        try message.append("org.bluez.Device1", "no dictionary", [String]())
        var reader = message.makeReader()
        _ = try reader.read(String.self)
        var device = DeviceRecord()
        #expect(throws: DBusError.self) { try device.apply(&reader) }
    }

    @Test func aWrongTypeInsideTheVariantIsNoSignalStrength() throws {
        var device = DeviceRecord(properties: ["RSSI": .int16(-40)])
        var reader = try changes(["RSSI": .string("loud")])
        #expect(try device.apply(&reader))
        #expect(device.sighting(device: "/org/bluez/hci0/dev_1", wanted: []) == nil)
    }

    /// Manufacturer data as BlueZ reports it: `a{qv}`, each value an `ay`.
    static func manufacturerData(_ entries: [UInt16: [UInt8]]) -> Value {
        .dictionary(key: .uint16, value: .variant, Dictionary(uniqueKeysWithValues: entries.map { company, bytes in
            (Value.uint16(company), Value.variant(.array(element: .byte, bytes.map { .byte($0) })))
        }))
    }

    /// Company 0xFFFF's bytes are kept, whatever else the device sends
    /// (an iPhone's Apple data is skipped); a change of them is a reception.
    @Test func theUnassignedCompanysManufacturerDataIsKept() throws {
        var device = DeviceRecord(properties: [
            "RSSI": .int16(-40), "ManufacturerData": Self.manufacturerData([0xFFFF: [0x14, 0x41, 0x42]]),
        ])
        #expect(device.sighting(device: "/org/bluez/hci0/dev_1", wanted: [])?.manufacturerData == [0x14, 0x41, 0x42])

        var reader = try changes(["ManufacturerData": Self.manufacturerData([0x004C: [0x02, 0x15], 0xFFFF: [0x04, 0x04, 0x00, 0x00, 0x1B, 0xD7]])])
        #expect(try device.apply(&reader), "a new part is a reception")
        let readAll = reader.isAtEnd
        #expect(readAll)
        #expect(device.sighting(device: "/org/bluez/hci0/dev_1", wanted: [])?.manufacturerData == [0x04, 0x04, 0x00, 0x00, 0x1B, 0xD7])

        reader = try changes(["ManufacturerData": Self.manufacturerData([0x004C: [0x02, 0x15]])])
        #expect(try device.apply(&reader))
        #expect(device.sighting(device: "/org/bluez/hci0/dev_1", wanted: [])?.manufacturerData == [], "none of 0xFFFF's any more")

        // Bytes of another type are none, and the rest of the signal is read.
        reader = try changes([
            "ManufacturerData": .dictionary(key: .uint16, value: .variant, [.uint16(0xFFFF): .variant(.string("x"))]),
            "RSSI": .int16(-50),
        ])
        #expect(try device.apply(&reader))
        let sighting = device.sighting(device: "/org/bluez/hci0/dev_1", wanted: [])
        #expect(sighting?.manufacturerData == [] && sighting?.rssi == -50)

        reader = try changes([:], invalidated: ["ManufacturerData"])
        device = DeviceRecord(properties: ["RSSI": .int16(-40), "ManufacturerData": Self.manufacturerData([0xFFFF: [1]])])
        _ = try device.apply(&reader)
        #expect(device.sighting(device: "/org/bluez/hci0/dev_1", wanted: [])?.manufacturerData == [], "invalidated")
    }
}

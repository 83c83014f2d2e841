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
}

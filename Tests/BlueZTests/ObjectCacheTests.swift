import BlueZ
import DBus
import Testing

@Suite struct ObjectCacheTests {
    let device: ObjectPath = "/org/bluez/hci0/dev_11_22_33_44_55_66"

    @Test func propertiesMergeAndInvalidate() {
        var cache = ObjectCache()
        cache.apply(.added(device, ["org.bluez.Device1": ["Name": .string("a"), "RSSI": .int16(-40)]]))
        let after = cache.apply(
            .propertiesChanged(device, interface: "org.bluez.Device1", changed: ["Name": .string("b")], invalidated: ["RSSI"]))
        #expect(after == ["Name": .string("b")])
        #expect(cache[device, "org.bluez.Device1"] == ["Name": .string("b")])
    }

    @Test func removingTheLastInterfaceForgetsTheObject() {
        var cache = ObjectCache([device: ["org.bluez.Device1": [:], "org.freedesktop.DBus.Properties": [:]]])
        cache.apply(.removed(device, interfaces: ["org.bluez.Device1"]))
        #expect(cache.objects[device] != nil)
        cache.apply(.removed(device, interfaces: ["org.freedesktop.DBus.Properties"]))
        #expect(cache.objects[device] == nil)
    }

    @Test func sightingNeedsSignalStrengthAndAWantedUUID() {
        let uuid = "fb3367fd-09f8-4e08-9f6b-07e309fd2576"
        let heard: [String: Value] = [
            "Address": .string("11:22:33:44:55:66"), "Name": .string("010108x"), "RSSI": .int16(-50),
            "UUIDs": .array(element: .string, [.string(uuid)]),
        ]
        let sighting = Sighting(device: device, properties: heard, wanted: [uuid])
        #expect(sighting?.localName == "010108x")
        #expect(sighting?.rssi == -50)
        #expect(sighting?.address == "11:22:33:44:55:66")
        var remembered = heard
        remembered["RSSI"] = nil
        #expect(Sighting(device: device, properties: remembered, wanted: [uuid]) == nil)
        #expect(Sighting(device: device, properties: heard, wanted: ["0000180f-0000-1000-8000-00805f9b34fb"]) == nil)
    }
}

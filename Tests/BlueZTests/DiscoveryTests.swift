import BlueZ
import BlueZTestSupport
import DBus
import DBusTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct DiscoveryTests {
    static let uuid = "fb3367fd-09f8-4e08-9f6b-07e309fd2576"
    static let other = "0000180f-0000-1000-8000-00805f9b34fb"

    @Test func filterStartSightingsAndStop() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let discovery = try await adapter.discover(serviceUUIDs: [Self.uuid.uppercased()])

        let filter = await fake.calls.next { if case .setDiscoveryFilter = $0 { true } else { false } }
        #expect(filter == .setDiscoveryFilter([
            "Transport": .string("le"), "DuplicateData": .boolean(true),
            "UUIDs": .array(element: .string, [.string(Self.uuid.uppercased())]),
        ]))
        #expect(await fake.calls.next { $0 == .startDiscovery } == .startDiscovery)

        var events = discovery.makeAsyncIterator()
        // Not ours (another UUID), then ours; the first sighting must be ours.
        try fake.deviceFound("11:11:11:11:11:11", name: "battery", rssi: -30, uuids: [Self.other])
        try fake.deviceFound("22:22:22:22:22:22", name: "010108Bob", rssi: -60, uuids: [Self.uuid])
        guard let first = try await events.next() else { Issue.record("no sighting"); return }
        #expect(first.address == "22:22:22:22:22:22")
        #expect(first.localName == "010108Bob")
        #expect(first.rssi == -60)

        // Invalidated RSSI (a scan stop) is not a reception; a new name is, with the cached RSSI.
        try fake.deviceChanged("22:22:22:22:22:22", [:], invalidated: ["RSSI"])
        try fake.deviceChanged("22:22:22:22:22:22", ["RSSI": .int16(-55)])
        try fake.deviceChanged("22:22:22:22:22:22", ["Name": .string("010105Bob"), "RSSI": .int16(127)])
        guard let second = try await events.next(), let third = try await events.next()
        else { Issue.record("no sightings"); return }
        #expect(second.rssi == -55)
        #expect(third.localName == "010105Bob")
        #expect(third.rssi == nil)  // 127: the controller did not measure it

        await discovery.stop()
        #expect(await fake.calls.next { $0 == .stopDiscovery } == .stopDiscovery)
        #expect(try await events.next() == nil)
    }

    /// Each sighting carries company 0xFFFF's manufacturer data as BlueZ
    /// holds it for the device; a change of it alone is a reception.
    @Test func sightingsCarryTheUnassignedCompanysManufacturerData() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let discovery = try await adapter.discover(serviceUUIDs: [Self.uuid])
        var events = discovery.makeAsyncIterator()
        try fake.deviceFound("22:22:22:22:22:22", name: "230105Bob", rssi: -60, uuids: [Self.uuid])
        #expect(try await events.next()?.manufacturerData == [])
        let part: Value = .dictionary(key: .uint16, value: .variant, [
            .uint16(0x004C): .variant(.array(element: .byte, [.byte(2)])),
            .uint16(0xFFFF): .variant(.array(element: .byte, [.byte(0x13), .byte(0x45)])),
        ])
        try fake.deviceChanged("22:22:22:22:22:22", ["ManufacturerData": part])
        let sighting = try await events.next()
        #expect(sighting?.manufacturerData == [0x13, 0x45])
        #expect(sighting?.localName == "230105Bob" && sighting?.rssi == -60, "the rest as held")
        await discovery.stop()
    }

    @Test func devicesAlreadyHeardAreReportedFirst() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        fake.addDevice("33:33:33:33:33:33", name: "010101Carol", rssi: -70, uuids: [Self.uuid])
        fake.addDevice("44:44:44:44:44:44", name: "remembered", rssi: nil, uuids: [Self.uuid])
        let discovery = try await adapter.discover(serviceUUIDs: [Self.uuid])
        var events = discovery.makeAsyncIterator()
        guard let sighting = try await events.next() else { Issue.record("no sighting"); return }
        #expect(sighting.localName == "010101Carol")
        await discovery.stop()
        #expect(try await events.next() == nil)  // the remembered device (no RSSI) never came
    }

    @Test func theAppsDiscoverableDevicesAreForgottenSoTheirNextNamesAreRead() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let discovery = try await adapter.discover(serviceUUIDs: [Self.uuid])
        var events = discovery.makeAsyncIterator()
        #expect(await fake.calls.next { $0 == .startDiscovery } == .startDiscovery)
        // An iPhone (LE General Discoverable, BR/EDR bits), a session (no
        // flags), and an iPhone someone paired, which is never removed.
        try fake.deviceFound("4A:00:00:00:00:01", name: "0100FEAl", rssi: -60, uuids: [Self.uuid], flags: 0x1A)
        try fake.deviceFound("22:22:22:22:22:22", name: "010108Bob", rssi: -60, uuids: [Self.uuid])
        try fake.deviceFound("6C:00:00:00:00:03", name: "0100FEBo", rssi: -60, uuids: [Self.uuid], flags: 0x1A)
        try fake.deviceChanged("6C:00:00:00:00:03", ["Paired": .boolean(true), "RSSI": .int16(-61)])
        var discoverable: [String: Bool] = [:]
        var pairedHeardAgain = false
        while !(discoverable.count == 3 && pairedHeardAgain), let sighting = try await events.next() {
            discoverable[sighting.address] = sighting.isDiscoverable
            if sighting.rssi == -61 { pairedHeardAgain = true }
        }
        #expect(discoverable == ["4A:00:00:00:00:01": true, "22:22:22:22:22:22": false, "6C:00:00:00:00:03": true])
        await discovery.forgetDiscoverable()
        // The next call after the removals is the marker's: only the unpaired iPhone went.
        let marker: [String: Value] = ["Transport": .string("auto")]
        try await adapter.call("SetDiscoveryFilter", marker)
        let removed: @Sendable (FakeBlueZ.Call) -> Bool = {
            if case .removeDevice = $0 { return true }
            return $0 == .setDiscoveryFilter(marker)
        }
        #expect(await fake.calls.next(where: removed) == .removeDevice(fake.devicePath("4A:00:00:00:00:01", on: "hci0")))
        #expect(await fake.calls.next(where: removed) == .setDiscoveryFilter(marker))
        await discovery.stop()
    }

    /// The fake follows the advertisement's `PropertiesChanged` on a task of its
    /// own, unordered against method calls; so the change is waited for, inside
    /// the pause, until the fake has seen it. Every wait is for an event that
    /// comes whether `pause` is right or wrong, so a wrong order fails an
    /// expectation instead of hanging; the time limit guards against a fake
    /// that stops talking.
    @Test(.timeLimit(.minutes(1)))
    func pauseStopsScanningAndResumeStartsItAgain() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let ad = try await adapter.advertise(Advertisement(serviceUUIDs: [Self.uuid], localName: "010101Ann"))
        let discovery = try await adapter.discover(serviceUUIDs: [Self.uuid])
        #expect(await fake.calls.next { $0 == .startDiscovery } == .startDiscovery)
        let relevant: @Sendable (FakeBlueZ.Call) -> Bool = {
            if case .advertisementChanged = $0 { return true }
            return $0 == .stopDiscovery || $0 == .startDiscovery
        }
        try await discovery.pause()
        try await ad.update(localName: "010102Ann", manufacturerData: nil)
        #expect(await fake.calls.next(where: relevant) == .stopDiscovery)
        let change = await fake.calls.next(where: relevant)
        #expect(change == .advertisementChanged(ad.path, ["LocalName": .string("010102Ann")]))
        try await discovery.resume()
        // Stopping adds a StopDiscovery, so a resume that did not scan again fails here too.
        await discovery.stop()
        #expect(await fake.calls.next(where: relevant) == .startDiscovery)
        #expect(await fake.calls.next(where: relevant) == .stopDiscovery)
        // Once stopped, neither asks BlueZ anything: the next call the fake
        // records is the marker's.
        try await discovery.pause()
        try await discovery.resume()
        let marker: [String: Value] = ["Transport": .string("auto")]
        try await adapter.call("SetDiscoveryFilter", marker)
        #expect(await fake.calls.next { $0 != .setDiscoveryFilter(marker) ? relevant($0) : true } == .setDiscoveryFilter(marker))
        await ad.stop()
    }

    @Test func poweredOffAdapterIsNotPowered() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        try fake.setPowered("hci0", false)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let error = await #expect(throws: BlueZError.self) { try await adapter.discover(serviceUUIDs: [Self.uuid]) }
        #expect(error?.kind == .notPowered)
        #expect(error?.name?.rawValue == "org.bluez.Error.NotReady")
        withExtendedLifetime(fake) {}  // org.bluez stays on the bus to the end
    }

    @Test func adapterRemovalEndsTheDiscovery() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus, adapters: ["hci0", "hci1"])
        let discovery = try await BlueZ(bus: try await bus.connect()).adapter("hci1").discover(serviceUUIDs: [Self.uuid])
        try await fake.removeAdapter("hci1")
        var events = discovery.makeAsyncIterator()
        let error = await #expect(throws: BlueZError.self) { _ = try await events.next() }
        #expect(error?.kind == .adapterNotFound)
    }

    @Test func bluetoothdCrashEndsTheDiscovery() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let discovery = try await BlueZ(bus: try await bus.connect()).adapter("hci0").discover(serviceUUIDs: [Self.uuid])
        fake.crash()
        var events = discovery.makeAsyncIterator()
        let error = await #expect(throws: BlueZError.self) { _ = try await events.next() }
        #expect(error?.kind == .bluetoothdAbsent)
    }
}

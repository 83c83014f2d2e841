import BlueZ
import BlueZTestSupport
import DBus
import DBusTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct AdapterTests {
    @Test func listsAndPicksAdapters() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus, adapters: ["hci0", "hci1", "hci10"])
        try fake.setPowered("hci0", false)
        let bluez = BlueZ(bus: try await bus.connect())

        let all = try await bluez.adapters()
        #expect(all.map(\.name) == ["hci0", "hci1", "hci10"])
        #expect(all[0].isPowered == false)
        #expect(all[1].advertising == AdvertisingCapacity(supported: 5, active: 0))

        #expect(try await bluez.adapter().name == "hci1")  // the first powered one
        #expect(try await bluez.adapter("hci0").name == "hci0")
        #expect(try await bluez.adapter(all[2].address.lowercased()).name == "hci10")
        let error = await #expect(throws: BlueZError.self) { try await bluez.adapter("hci7") }
        #expect(error?.kind == .adapterNotFound)
        withExtendedLifetime(fake) {}  // org.bluez stays on the bus to the end
    }

    @Test func noAdapterAtAll() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus, adapters: [])
        let error = await #expect(throws: BlueZError.self) { try await BlueZ(bus: try await bus.connect()).adapter() }
        #expect(error?.kind == .adapterNotFound)
        withExtendedLifetime(fake) {}
    }

    @Test func addedRemovedAndPoweredEvents() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let bluez = BlueZ(bus: try await bus.connect())
        var events = try await bluez.adapterEvents().makeAsyncIterator()

        try fake.setPowered("hci0", false)
        guard case .changed(let changed) = try await events.next() else { Issue.record("no change"); return }
        #expect(changed.name == "hci0" && !changed.isPowered)

        try await fake.addAdapter("hci1")
        guard case .added(let added) = try await events.next() else { Issue.record("no addition"); return }
        #expect(added.name == "hci1" && added.isPowered)

        try await fake.removeAdapter("hci1")
        #expect(try await events.next() == .removed("hci1"))
    }

    /// A follower of one adapter hears of that adapter alone: not another's
    /// addition, removal or devices.
    @Test func eventsOfOneAdapter() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let bluez = BlueZ(bus: try await bus.connect())
        var events = try await bluez.adapterEvents(named: "hci0").makeAsyncIterator()

        try await fake.addAdapter("hci1")
        try fake.setPowered("hci1", false)
        try await fake.removeAdapter("hci1")
        try fake.setPowered("hci0", false)
        guard case .changed(let changed) = try await events.next() else { Issue.record("no change"); return }
        #expect(changed.name == "hci0" && !changed.isPowered)

        try await fake.removeAdapter("hci0")
        #expect(try await events.next() == .removed("hci0"))
    }

    /// A name that makes no object path follows every adapter (none of them
    /// is that name's), rather than nothing at all.
    @Test func aNameThatIsNoPathFollowsEveryAdapter() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let bluez = BlueZ(bus: try await bus.connect())
        var events = try await bluez.adapterEvents(named: "hci 0").makeAsyncIterator()

        try fake.setPowered("hci0", false)
        guard case .changed(let changed) = try await events.next() else { Issue.record("no change"); return }
        #expect(changed.name == "hci0")
    }

    /// bluetoothd adds LEAdvertisingManager1 to an adapter after Adapter1:
    /// that is when the adapter can advertise, so it is a change.
    @Test func anInterfaceAddedToAnAdapterIsAChange() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let bluez = BlueZ(bus: try await bus.connect())
        var events = try await bluez.adapterEvents().makeAsyncIterator()
        let manager: [String: Value] = ["SupportedInstances": .byte(3), "ActiveInstances": .byte(1)]
        try fake.connection.emit(
            path: .root, interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded",
            FakeBlueZ.adapterPath("hci0"), ["org.bluez.LEAdvertisingManager1": manager])
        guard case .changed(let changed) = try await events.next() else { Issue.record("no change"); return }
        #expect(changed.name == "hci0")
        #expect(changed.advertising == AdvertisingCapacity(supported: 3, active: 1))
    }

    @Test func presenceFollowsBluetoothd() async throws {
        let bus = try await TestBus.start()
        let bluez = BlueZ(bus: try await bus.connect())
        var presence = try await bluez.presence().makeAsyncIterator()
        #expect(try await presence.next() == .absent)

        let fake = try await FakeBlueZ.start(on: bus)
        #expect(try await presence.next() == .present(owner: fake.connection.uniqueName!))
        fake.crash()
        #expect(try await presence.next() == .absent)

        // Service restart: a new bluetoothd, and the adapters are there again.
        let again = try await FakeBlueZ.start(on: bus)
        #expect(try await presence.next() == .present(owner: again.connection.uniqueName!))
        #expect(try await bluez.adapters().map(\.name) == ["hci0"])
    }

    @Test func extendedAdvertisingIsReadFromFeaturesOrSecondaryChannels() {
        let legacy = AdvertisingCapacity(["SupportedInstances": .byte(5), "ActiveInstances": .byte(1),
                                          "SupportedFeatures": .array(element: .string, [.string("CanSetTxPower")])])
        #expect(legacy == AdvertisingCapacity(supported: 5, active: 1, extended: false))
        let extended = AdvertisingCapacity(["SupportedInstances": .byte(5), "ActiveInstances": .byte(0),
                                            "SupportedFeatures": .variant(.array(element: .string, [.string("HardwareOffload")]))])
        #expect(extended.extended)
        #expect(!AdvertisingCapacity(["SupportedInstances": .byte(5)]).extended)
        // A bluetoothd without --experimental: only the secondary channels say it.
        let plain = AdvertisingCapacity(["SupportedInstances": .byte(5),
                                         "SupportedSecondaryChannels": .array(element: .string, [.string("1M")])])
        #expect(plain.extended)
        #expect(!AdvertisingCapacity(["SupportedInstances": .byte(5),
                                      "SupportedSecondaryChannels": .array(element: .string, [])]).extended)
    }
}

import BlueZ
import BlueZTestSupport
import DBus
import DBusTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct AdvertisingTests {
    static let uuid = "FB3367FD-09F8-4E08-9F6B-07E309FD2576"
    let advertisement = Advertisement(serviceUUIDs: [uuid], localName: "010108Alice")

    @Test func registersReadsBackUpdatesAndStops() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let handle = try await adapter.advertise(advertisement)

        guard case .registered(let path, let properties) = await fake.calls.next(where: { if case .registered = $0 { true } else { false } })
        else { Issue.record("no registration"); return }
        #expect(path == handle.path)
        #expect(properties["Type"]?.string == "broadcast")
        #expect(properties["LocalName"]?.string == "010108Alice")
        #expect(properties["ServiceUUIDs"]?.elements?.compactMap(\.string) == [Self.uuid])
        #expect(properties["MinInterval"] == nil)
        #expect(properties["ManufacturerData"] == .dictionary(key: .uint16, value: .variant, [:]), "none, and settable")

        try await handle.update(localName: "010105Alice", manufacturerData: nil)
        // Once synchronized, BlueZ has read the change: no waiting on it.
        try await handle.synchronize()
        #expect(fake.advertisementChangesRead == 1)
        let change = await fake.calls.next { if case .advertisementChanged = $0 { true } else { false } }
        #expect(change == .advertisementChanged(handle.path, ["LocalName": .string("010105Alice")]))
        #expect(handle.advertisement.localName == "010105Alice")

        // Unchanged, announced again: BlueZ gets the signal all the same.
        try await handle.announceAgain()
        #expect(fake.advertisementChangesRead == 2)  // it waits for BlueZ to read it
        let again = await fake.calls.next { if case .advertisementChanged = $0 { true } else { false } }
        #expect(again == .advertisementChanged(handle.path, ["LocalName": .string("010105Alice")]))

        await handle.stop()
        let stopped = await fake.calls.next { if case .unregistered = $0 { true } else { false } }
        #expect(stopped == .unregistered(handle.path))
        await handle.stop()  // twice is harmless
        await #expect(throws: BlueZError.self) { try await handle.announceAgain() }
    }

    /// Manufacturer data as BlueZ reads it: company 0xFFFF's `part`.
    /// The properties of the next `PropertiesChanged` of the advertisement the fake BlueZ read.
    static func nextChange(on fake: FakeBlueZ) async -> [String: Value]? {
        guard case let .advertisementChanged(_, changed) = await fake.calls.next(where: {
            if case .advertisementChanged = $0 { true } else { false }
        }) else { return nil }
        return changed
    }

    static func part(_ part: [UInt8]) -> Value {
        .dictionary(key: .uint16, value: .variant, [.uint16(0xFFFF): .variant(.array(element: .byte, part.map { .byte($0) }))])
    }

    /// The first part goes on the air with the registration, the next at
    /// each announcement, round and round; a new local name leaves the
    /// rotation where it is; new parts start again from the first.
    @Test func announcingAgainPutsTheNextPartOnTheAir() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        var rotating = advertisement
        rotating.manufacturerData = RotatingManufacturerData(company: 0xFFFF, parts: [[0x11, 0xA1], [0x21, 0xA2], [0x01, 0xA0]])
        let handle = try await adapter.advertise(rotating)
        guard case .registered(_, let properties) = await fake.calls.next(where: { if case .registered = $0 { true } else { false } })
        else { Issue.record("no registration"); return }
        #expect(properties["ManufacturerData"] == Self.part([0x11, 0xA1]))

        func nextChange() async -> [String: Value]? { await Self.nextChange(on: fake) }
        try await handle.announceNextPart()
        #expect(await nextChange() == ["ManufacturerData": Self.part([0x21, 0xA2])])
        #expect(fake.advertisementChangesRead == 1, "read before it returns")
        try await handle.announceAgain()
        #expect(await nextChange() == ["LocalName": .string(rotating.localName)], "announced again as it is: the same part")

        try await handle.update(localName: "010105Alice", manufacturerData: rotating.manufacturerData)
        #expect(await nextChange() == ["LocalName": .string("010105Alice")], "the part stays")
        try await handle.announceNextPart()
        #expect(await nextChange() == ["ManufacturerData": Self.part([0x01, 0xA0])])
        try await handle.announceNextPart()
        #expect(await nextChange() == ["ManufacturerData": Self.part([0x11, 0xA1])], "round and round")
        try await handle.announceNextPart()
        #expect(await nextChange() == ["ManufacturerData": Self.part([0x21, 0xA2])])

        let next = RotatingManufacturerData(company: 0xFFFF, parts: [[0x12, 0xB1], [0x02, 0xB0]])
        try await handle.update(localName: "010105Alice", manufacturerData: next)
        #expect(await nextChange() == ["ManufacturerData": Self.part([0x12, 0xB1])], "new parts from the first")
        try await handle.announceNextPart()
        #expect(await nextChange() == ["ManufacturerData": Self.part([0x02, 0xB0])])
        try await handle.announceNextPart()
        #expect(await nextChange() == ["ManufacturerData": Self.part([0x12, 0xB1])])
        let changedLast = RotatingManufacturerData(company: 0xFFFF, parts: [[0x12, 0xB1], [0x02, 0xB5]])
        try await handle.update(localName: "010105Alice", manufacturerData: changedLast)
        #expect(await nextChange() == ["ManufacturerData": Self.part([0x02, 0xB5])], "the one part changed goes out at once")
        try await handle.announceNextPart()
        #expect(await nextChange() == ["ManufacturerData": Self.part([0x12, 0xB1])], "and the turn goes on from there")

        // One part: nothing rotates, the local name is announced again.
        let single = RotatingManufacturerData(company: 0xFFFF, parts: [[0x03, 0xC0]])
        try await handle.update(localName: "010108Alice", manufacturerData: single)
        #expect(await nextChange() == ["LocalName": .string("010108Alice"), "ManufacturerData": Self.part([0x03, 0xC0])])
        try await handle.announceAgain()
        #expect(await nextChange() == ["LocalName": .string("010108Alice")])

        try await handle.update(localName: "010108Alice", manufacturerData: nil)
        #expect(await nextChange() == ["ManufacturerData": .dictionary(key: .uint16, value: .variant, [:])], "none any more")
        #expect(handle.advertisement.manufacturerData == nil)
        await handle.stop()
    }

    /// Data that awaits an announcement costs none of its own: the next
    /// announcement, or change, puts its first part on the air.
    @Test func dataThatAwaitsGoesOutWithTheNextAnnouncementOrChange() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        var rotating = advertisement
        rotating.manufacturerData = RotatingManufacturerData(company: 0xFFFF, parts: [[0x11, 0xA1], [0x01, 0xA0]])
        let handle = try await adapter.advertise(rotating)
        _ = await fake.calls.next(where: { if case .registered = $0 { true } else { false } })
        func nextChange() async -> [String: Value]? { await Self.nextChange(on: fake) }
        try handle.awaitAnnouncement(RotatingManufacturerData(company: 0xFFFF, parts: [[0x03, 0xC0]]))
        try await handle.announceAgain()
        #expect(await nextChange() == ["ManufacturerData": Self.part([0x03, 0xC0])],
                "nothing before the announcement, then its first part, though it is alone")
        try await handle.announceAgain()
        #expect(await nextChange() == ["LocalName": .string(rotating.localName)], "one part: the local name again")

        let two = RotatingManufacturerData(company: 0xFFFF, parts: [[0x14, 0xD1], [0x04, 0xD0]])
        try handle.awaitAnnouncement(two)
        try await handle.update(localName: "010103Alice", manufacturerData: two)
        let carried = await nextChange()
        #expect(carried == ["LocalName": .string("010103Alice"), "ManufacturerData": Self.part([0x14, 0xD1])],
                "a change carries it: \(String(describing: carried))")
        try await handle.announceNextPart()
        #expect(await nextChange() == ["ManufacturerData": Self.part([0x04, 0xD0])], "and the turn goes on")
        await handle.stop()
    }

    @Test func intervalIsOfferedAsMinAndMaxInterval() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter()
        var fast = advertisement
        fast.interval = .milliseconds(20) ... .milliseconds(40)
        let handle = try await adapter.advertise(fast)
        guard case .registered(_, let properties) = await fake.calls.next(where: { if case .registered = $0 { true } else { false } })
        else { Issue.record("no registration"); return }
        #expect(properties["MinInterval"] == .uint32(20))
        #expect(properties["MaxInterval"] == .uint32(40))
        await handle.stop()
        withExtendedLifetime(fake) {}  // org.bluez stays on the bus to the end
    }

    @Test func poweredOffAdapterIsNotPowered() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        try fake.setPowered("hci0", false)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let error = await #expect(throws: BlueZError.self) { try await adapter.advertise(advertisement) }
        #expect(error?.kind == .notPowered)
        withExtendedLifetime(fake) {}  // org.bluez stays on the bus to the end
    }

    @Test func fullAdapterHasNoAdvertisingSlot() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        fake.fillAdvertisingSlots(of: "hci0")
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        #expect(adapter.advertising == AdvertisingCapacity(supported: 5, active: 5))
        let error = await #expect(throws: BlueZError.self) { try await adapter.advertise(advertisement) }
        #expect(error?.kind == .noAdvertisingSlot)
        #expect(error?.name?.rawValue == "org.bluez.Error.NotPermitted")
        withExtendedLifetime(fake) {}  // org.bluez stays on the bus to the end
    }

    @Test func releaseEndsTheHandle() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let handle = try await adapter.advertise(advertisement)
        try await fake.releaseAdvertisements(of: "hci0")
        var events = handle.events.makeAsyncIterator()
        #expect(await events.next() == .released)
        #expect(await events.next() == nil)
        let error = await #expect(throws: BlueZError.self) { try await handle.update(localName: "x", manufacturerData: nil) }
        #expect(error?.kind == .released)
        await handle.stop()  // BlueZ already dropped it: no UnregisterAdvertisement
    }

    @Test func onlyOrgBluezMayCallTheAdvertisement() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let client = try await bus.connect()
        let handle = try await BlueZ(bus: client).adapter("hci0").advertise(advertisement)
        let stranger = try await bus.connect()
        let release = await #expect(throws: DBusError.self) {
            _ = try await stranger.call(
                destination: client.uniqueName!, path: handle.path, interface: Advertisement.interface, member: "Release")
        }
        #expect(release?.name == .accessDenied)
        // Nor may it read the advertisement (org.bluez did, to register it).
        let getAll = await #expect(throws: DBusError.self) {
            _ = try await stranger.call(
                destination: client.uniqueName!, path: handle.path, interface: "org.freedesktop.DBus.Properties",
                member: "GetAll", Advertisement.interface)
        }
        #expect(getAll?.name == .accessDenied)
        let get = await #expect(throws: DBusError.self) {
            _ = try await stranger.call(
                destination: client.uniqueName!, path: handle.path, interface: "org.freedesktop.DBus.Properties",
                member: "Get", Advertisement.interface, "LocalName")
        }
        #expect(get?.name == .accessDenied)
        // Still registered: the stranger's Release was refused, so stop() unregisters.
        await handle.stop()
        let stopped = await fake.calls.next { if case .unregistered = $0 { true } else { false } }
        #expect(stopped == .unregistered(handle.path))
    }

    @Test func adapterRemovalReleasesTheAdvertisement() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus, adapters: ["hci0", "hci1"])
        let handle = try await BlueZ(bus: try await bus.connect()).adapter("hci1").advertise(advertisement)
        try await fake.removeAdapter("hci1")
        var events = handle.events.makeAsyncIterator()
        #expect(await events.next() == .released)
    }

    @Test func bluetoothdCrashEndsTheHandle() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let handle = try await BlueZ(bus: try await bus.connect()).adapter("hci0").advertise(advertisement)
        fake.crash()
        var events = handle.events.makeAsyncIterator()
        #expect(await events.next() == .bluetoothdGone)
    }
}

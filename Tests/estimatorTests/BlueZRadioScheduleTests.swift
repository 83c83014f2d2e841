import BlueZ
import BlueZTestSupport
import DBus
import DBusTestSupport
import Radio
import RadioScheduling
import Testing

/// The session's BlueZ radio against the fake bluetoothd, on the test's
/// clock: every step and timer of both modes of the schedule, seen in the
/// order of what bluetoothd is asked (`FakeBlueZ.Call`). A task between two
/// steps sleeps on the clock, so `deadlines` shows each timer before it
/// runs out, and no step can come early without the test seeing it.
@Suite(.timeLimit(.minutes(1))) struct BlueZRadioScheduleTests {
    /// A radio on hci0 of `fake`'s bus, restarting every 1.5 s exactly.
    static func radio(on bus: TestBus, clock: ManualClock, listenLimit: Duration = RadioSchedule.standard.listenLimit)
        -> BlueZRadio
    {
        var schedule = RadioSchedule.standard
        schedule.jitter = .zero
        schedule.listenLimit = listenLimit
        return BlueZRadio(adapter: "hci0", schedule: schedule, clock: clock) { BlueZ(bus: try await bus.connect()) }
    }

    static let relevant: @Sendable (FakeBlueZ.Call) -> Bool = {
        switch $0 {
        case .startDiscovery, .stopDiscovery, .advertisementChanged, .registered, .unregistered: true
        case .setDiscoveryFilter, .removeDevice: false
        }
    }

    static func name(_ text: String) -> [String: Value] { ["LocalName": .string(text)] }

    /// Registers "010101Ann" and returns the advertisement's path, once the first scan has started.
    static func started(_ radio: BlueZRadio, _ fake: FakeBlueZ) async throws -> ObjectPath {
        try await radio.start(localName: Array("010101Ann".utf8), parts: [])
        guard case .registered(let path, _) = await fake.calls.next(where: relevant) else {
            Issue.record("not registered")
            return .root
        }
        #expect(await fake.calls.next(where: relevant) == .startDiscovery)
        return path
    }

    @Test func theStrictScheduleStopsAnnouncesSettlesAndStarts() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let clock = ManualClock()
        let radio = Self.radio(on: bus, clock: clock)
        let ad = try await Self.started(radio, fake)
        #expect(radio.schedule.mode == .strict)
        #expect(!radio.changesWhileScanning, "a change stops the scan: votes go in clear")

        // A restart: due after 1.5 s, not before; stop -> announce ->
        // bluetoothd has read it (the announcement returned) -> 50 ms -> start.
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(1500)])
        clock.advance(by: .milliseconds(1500))
        #expect(await fake.calls.next(where: Self.relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.name("010101Ann")))
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(1550)])
        clock.advance(by: .milliseconds(50))
        #expect(await fake.calls.next(where: Self.relevant) == .startDiscovery)
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(3050)])

        // A change: the same gap around it, then once more 0.5 s later.
        async let update = radio.update(localName: Array("010102Ann".utf8), parts: [])
        #expect(await fake.calls.next(where: Self.relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.name("010102Ann")))
        await clock.waitForSleepers(2)
        #expect(clock.deadlines == [.milliseconds(1600), .milliseconds(3050)])
        clock.advance(by: .milliseconds(50))
        #expect(await fake.calls.next(where: Self.relevant) == .startDiscovery)
        _ = try await update
        await clock.waitForSleepers(2)
        #expect(clock.deadlines == [.milliseconds(2100), .milliseconds(3050)])
        clock.advance(by: .milliseconds(500))
        #expect(await fake.calls.next(where: Self.relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.name("010102Ann")))
        await clock.waitForSleepers(2)
        #expect(clock.deadlines == [.milliseconds(2150), .milliseconds(3050)])
        clock.advance(by: .milliseconds(50))
        #expect(await fake.calls.next(where: Self.relevant) == .startDiscovery)

        // The leave's second half: the scan stops, and the advertisement is
        // left to the scan's end (Linux restarts a legacy advertiser then).
        await radio.stopScanning()
        #expect(await fake.calls.next(where: Self.relevant) == .stopDiscovery)
        await radio.stop()
        #expect(await fake.calls.next(where: Self.relevant) == .unregistered(ad))
    }

    /// Looking for a quiet peer, the strict mode's due restart listens
    /// until a little after the session's next tick, and on while the
    /// session asks again; then it restarts as always.
    @Test func theStrictScheduleListensForAQuietPeerBeforeItsRestart() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let clock = ManualClock()
        // A limit no wait below reaches, so the random part of it does not show.
        let radio = Self.radio(on: bus, clock: clock, listenLimit: .seconds(60))
        let ad = try await Self.started(radio, fake)
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(1200))
        radio.lookAgain()
        // Due at 1.5 s; asked at 1.2 s, it listens until 1.2 s + 1.5 ticks.
        clock.advance(by: .milliseconds(300))
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(1950)])
        clock.advance(by: .milliseconds(200))
        radio.lookAgain()
        clock.advance(by: .milliseconds(250))
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(2450)])
        clock.advance(by: .milliseconds(500))
        #expect(await fake.calls.next(where: Self.relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.name("010101Ann")))
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(2500)])
        clock.advance(by: .milliseconds(50))
        #expect(await fake.calls.next(where: Self.relevant) == .startDiscovery)
        await radio.stop()
    }

    @Test func theLightScheduleRestartsTheScanAloneAndChangesWhileScanning() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus, extended: ["hci0"])
        let clock = ManualClock()
        let radio = Self.radio(on: bus, clock: clock)
        let ad = try await Self.started(radio, fake)
        #expect(radio.changesWhileScanning, "changes while scanning: votes are sealed")
        #expect(radio.schedule.mode == .light)

        // A restart: stop -> start, no announcement, no settle; the next is
        // 1.5 s after it.
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(1500)])
        clock.advance(by: .milliseconds(1500))
        #expect(await fake.calls.next(where: Self.relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: Self.relevant) == .startDiscovery)
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(3000)])

        // A change goes out while scanning, and once more 0.25 s later
        // (`lightReannounceAfter`), without a gap.
        try await radio.update(localName: Array("010102Ann".utf8), parts: [])
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.name("010102Ann")))
        await clock.waitForSleepers(2)
        #expect(clock.deadlines == [.milliseconds(1750), .milliseconds(3000)])
        clock.advance(by: .milliseconds(250))
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.name("010102Ann")))
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(3000)])

        // The leave's second half: the scan stops, and the set, which the
        // scan's end leaves alone, is announced again.
        await radio.stopScanning()
        #expect(await fake.calls.next(where: Self.relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.name("010102Ann")))
        await radio.stop()
        #expect(await fake.calls.next(where: Self.relevant) == .unregistered(ad))
    }

    /// Company 0xFFFF's manufacturer data holding `part`.
    static func part(_ part: [UInt8]) -> [String: Value] {
        ["ManufacturerData": .dictionary(key: .uint16, value: .variant,
                                         [.uint16(0xFFFF): .variant(.array(element: .byte, part.map { .byte($0) }))])]
    }

    /// The meeting's parts on the light schedule: the first with the
    /// registration, the next at each restart once the scan is on again; a
    /// pick leaves the part on the air, and its second announcement too;
    /// new parts start from the first.
    @Test func theLightScheduleMovesTheMeetingsPartsOnAtEachRestart() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus, extended: ["hci0"])
        let clock = ManualClock()
        let radio = Self.radio(on: bus, clock: clock)
        try await radio.start(localName: Array("230101Ann".utf8), parts: [[0x13, 0x45], [0x03, 0x08, 0, 0, 1, 0x9B]])
        guard case .registered(let ad, let properties) = await fake.calls.next(where: Self.relevant) else {
            Issue.record("not registered")
            return
        }
        #expect(properties["ManufacturerData"] == Self.part([0x13, 0x45])["ManufacturerData"])
        #expect(await fake.calls.next(where: Self.relevant) == .startDiscovery)

        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(1500))
        #expect(await fake.calls.next(where: Self.relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: Self.relevant) == .startDiscovery)
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.part([0x03, 0x08, 0, 0, 1, 0x9B])))

        try await radio.update(localName: Array("230105Ann".utf8), parts: [[0x13, 0x45], [0x03, 0x08, 0, 0, 1, 0x9B]])
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.name("230105Ann")), "the part stays")
        await clock.waitForSleepers(2)
        #expect(clock.deadlines == [.milliseconds(1750), .milliseconds(3000)])
        clock.advance(by: .milliseconds(250))
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.name("230105Ann")),
                "its second announcement repeats it, the part as it was")

        try await radio.update(localName: Array("240101Ann".utf8), parts: [[0x04, 0, 0, 0, 0, 0xC5]])
        #expect(await fake.calls.next(where: Self.relevant)
            == .advertisementChanged(ad, Self.name("240101Ann").merging(Self.part([0x04, 0, 0, 0, 0, 0xC5])) { $1 }))
        // One part: announced again unchanged, and the restarts leave it alone.
        await clock.waitForSleepers(2)
        #expect(clock.deadlines == [.milliseconds(2000), .milliseconds(3000)])
        clock.advance(by: .milliseconds(250))
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.name("240101Ann")))
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(1000))
        #expect(await fake.calls.next(where: Self.relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: Self.relevant) == .startDiscovery)
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(4500)])
        await radio.stop()
    }

    @Test func theEnvironmentsModeOverridesTheControllers() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus, extended: ["hci0"])
        let clock = ManualClock()
        var schedule = RadioSchedule.standard
        schedule.mode = .strict
        let radio = BlueZRadio(adapter: "hci0", schedule: schedule, clock: clock) { BlueZ(bus: try await bus.connect()) }
        let ad = try await Self.started(radio, fake)
        #expect(radio.schedule.mode == .strict)
        async let update = radio.update(localName: Array("010102Ann".utf8), parts: [])
        #expect(await fake.calls.next(where: Self.relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: Self.relevant) == .advertisementChanged(ad, Self.name("010102Ann")))
        await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(50))
        #expect(await fake.calls.next(where: Self.relevant) == .startDiscovery)
        _ = try await update
        await radio.stop()
    }
}

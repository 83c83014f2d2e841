import DBus
import BlueZTestSupport
import DBusTestSupport
import Testing

@testable import BlueZ

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
        guard case .sighting(let first) = try await events.next() else { Issue.record("no sighting"); return }
        #expect(first.address == "22:22:22:22:22:22")
        #expect(first.localName == "010108Bob")
        #expect(first.rssi == -60)

        // Invalidated RSSI (a scan stop) is not a reception; a new name is, with the cached RSSI.
        try fake.deviceChanged("22:22:22:22:22:22", [:], invalidated: ["RSSI"])
        try fake.deviceChanged("22:22:22:22:22:22", ["RSSI": .int16(-55)])
        try fake.deviceChanged("22:22:22:22:22:22", ["Name": .string("010105Bob"), "RSSI": .int16(127)])
        guard case .sighting(let second) = try await events.next(), case .sighting(let third) = try await events.next()
        else { Issue.record("no sightings"); return }
        #expect(second.rssi == -55)
        #expect(third.localName == "010105Bob")
        #expect(third.rssi == nil)  // 127: the controller did not measure it

        await discovery.stop()
        #expect(await fake.calls.next { $0 == .stopDiscovery } == .stopDiscovery)
        #expect(try await events.next() == nil)
    }

    @Test func devicesAlreadyHeardAreReportedFirst() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        fake.addDevice("33:33:33:33:33:33", name: "010101Carol", rssi: -70, uuids: [Self.uuid])
        fake.addDevice("44:44:44:44:44:44", name: "remembered", rssi: nil, uuids: [Self.uuid])
        let discovery = try await adapter.discover(serviceUUIDs: [Self.uuid])
        var events = discovery.makeAsyncIterator()
        guard case .sighting(let sighting) = try await events.next() else { Issue.record("no sighting"); return }
        #expect(sighting.localName == "010101Carol")
        await discovery.stop()
        #expect(try await events.next() == nil)  // the remembered device (no RSSI) never came
    }

    @Test func jitterSpreadsTheRestartIntervalWithinItsBounds() {
        let every = Duration.seconds(2), jitter = Duration.milliseconds(400)
        let schedule = ScanSchedule(restartEvery: every, jitter: jitter)
        let intervals = (0..<200).map { _ in schedule.nextInterval() }
        #expect(intervals.allSatisfy { $0 >= every - jitter && $0 <= every + jitter })
        // 200 draws over 800,001 microseconds: all in one half is a broken spread.
        #expect(intervals.contains { $0 < every } && intervals.contains { $0 > every })
        #expect(ScanSchedule(restartEvery: every).nextInterval() == every)
    }

    @Test func aDueRestartHoldsAfterASightingWithABackoffUpToItsLimit() {
        let schedule = ScanSchedule(
            restartEvery: .seconds(1), hold: .milliseconds(250), backoff: .milliseconds(100), holdLimit: .milliseconds(400))
        let none: (ClosedRange<Int64>) -> Int64 = { $0.lowerBound }, most: (ClosedRange<Int64>) -> Int64 = { $0.upperBound }
        #expect(schedule.holdRemaining(sinceSighting: nil, waited: .zero) == .zero)
        #expect(schedule.holdRemaining(sinceSighting: .milliseconds(250), waited: .zero) == .zero)
        #expect(schedule.holdRemaining(sinceSighting: .milliseconds(100), waited: .zero, random: none) == .milliseconds(150))
        #expect(schedule.holdRemaining(sinceSighting: .milliseconds(100), waited: .zero, random: most) == .milliseconds(250))
        // Drawn: within the bounds, and not one value for every radio.
        let draws = (0..<100).map { _ in schedule.holdRemaining(sinceSighting: .milliseconds(100), waited: .zero) }
        #expect(draws.allSatisfy { $0 >= .milliseconds(150) && $0 <= .milliseconds(250) })
        #expect(Set(draws).count > 1)
        // A room that is never quiet: the wait ends at the limit.
        #expect(schedule.holdRemaining(sinceSighting: .milliseconds(10), waited: .milliseconds(300), random: most)
                == .milliseconds(100))
        #expect(schedule.holdRemaining(sinceSighting: .milliseconds(10), waited: .milliseconds(400)) == .zero)
    }

    @Test func aListeningRestartWaitsARandomPartOfItsLimit() {
        let schedule = ScanSchedule(restartEvery: .seconds(1), listenLimit: .seconds(1))
        #expect(schedule.listenSpan(random: { $0.lowerBound }) == .milliseconds(100))
        #expect(schedule.listenSpan(random: { $0.upperBound }) == .seconds(1))
        let draws = (0..<100).map { _ in schedule.listenSpan() }
        #expect(draws.allSatisfy { $0 >= .milliseconds(100) && $0 <= .seconds(1) })
        #expect(Set(draws).count > 1)
        #expect(ScanSchedule(restartEvery: .seconds(1)).listenSpan() == .zero)
    }

    /// A restart that falls due while the caller asks to listen keeps
    /// scanning while it asks, and no longer than its limit allows.
    @Test(.timeLimit(.minutes(1)))
    func aDueRestartListensWhileAsked() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let clock = StepClock()
        // A tenth of a minute at least: longer than anything asked below.
        let discovery = try await adapter.discover(
            serviceUUIDs: [Self.uuid], schedule: ScanSchedule(restartEvery: .seconds(1), listenLimit: .seconds(60)),
            clock: clock)
        let relevant: @Sendable (FakeBlueZ.Call) -> Bool = { $0 == .stopDiscovery || $0 == .startDiscovery }
        #expect(await fake.calls.next(where: relevant) == .startDiscovery)
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(800))
        discovery.listen(for: .milliseconds(500))
        // Due at 1 s: it listens until 1.3 s, and on when asked again.
        clock.advance(by: .milliseconds(200))
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(1300)])
        discovery.listen(for: .milliseconds(400))
        clock.advance(by: .milliseconds(300))
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(1400)])
        clock.advance(by: .milliseconds(100))
        #expect(await fake.calls.next(where: relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: relevant) == .startDiscovery)
        // The next interval counts from there.
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(2400)])
        await discovery.stop()
        #expect(await fake.calls.next(where: relevant) == .stopDiscovery)

        // Without a limit, asking changes nothing.
        let plain = try await adapter.discover(
            serviceUUIDs: [Self.uuid], schedule: ScanSchedule(restartEvery: .seconds(1)), clock: clock)
        #expect(await fake.calls.next(where: relevant) == .startDiscovery)
        await clock.waitForSleepers()
        plain.listen(for: .seconds(5))
        clock.advance(by: .seconds(1))
        #expect(await fake.calls.next(where: relevant) == .stopDiscovery)
        await plain.stop()
    }

    /// The whole restart on the test's clock: due after the interval, held
    /// after a sighting, then stop -> announce -> bluetoothd has read it
    /// (the announcement's Ping) -> settle -> start. The restart task is
    /// asleep on the clock between steps, which `deadlines` shows; so each
    /// step is seen not to come early without waiting in real time.
    @Test(.timeLimit(.minutes(1)))
    func restartsStepByStepOnTheClock() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let ad = try await adapter.advertise(Advertisement(serviceUUIDs: [Self.uuid], localName: "010101Ann"))
        let clock = StepClock()
        let schedule = ScanSchedule(
            restartEvery: .seconds(1), settle: .milliseconds(50), hold: .milliseconds(250), holdLimit: .milliseconds(750))
        let discovery = try await adapter.discover(
            serviceUUIDs: [Self.uuid], schedule: schedule, clock: clock, whileStopped: { try? await ad.announceAgain() })
        let relevant: @Sendable (FakeBlueZ.Call) -> Bool = {
            if case .advertisementChanged = $0 { return true }
            return $0 == .stopDiscovery || $0 == .startDiscovery
        }
        #expect(await fake.calls.next(where: relevant) == .startDiscovery)

        // Due after the interval; nothing before.
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.seconds(1)])
        clock.advance(by: .seconds(1))
        #expect(await fake.calls.next(where: relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: relevant) == .advertisementChanged(ad.path, ["LocalName": .string("010101Ann")]))
        // announceAgain returned (bluetoothd answered the Ping): the settle
        // runs, and scanning starts only at its end.
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(1050)])
        clock.advance(by: .milliseconds(50))
        #expect(await fake.calls.next(where: relevant) == .startDiscovery)

        // A peer announces 100 ms before the next restart is due: the
        // restart holds until 250 ms after it.
        var events = discovery.makeAsyncIterator()
        #expect({ if case .restarted = $0 { true } else { false } }(try await events.next()))
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(2050)])
        clock.advance(by: .milliseconds(900))
        try fake.deviceFound("22:22:22:22:22:22", name: "010108Bob", rssi: -60, uuids: [Self.uuid])
        #expect({ if case .sighting = $0 { true } else { false } }(try await events.next()))
        clock.advance(by: .milliseconds(100))
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(2200)])
        clock.advance(by: .milliseconds(150))
        #expect(await fake.calls.next(where: relevant) == .stopDiscovery)
        await discovery.stop()
        await ad.stop()
    }

    /// lookAgain restarts the scan without waiting for the interval, and
    /// the next interval counts from that restart.
    @Test(.timeLimit(.minutes(1)))
    func lookingAgainRestartsAtOnce() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let clock = StepClock()
        let discovery = try await adapter.discover(
            serviceUUIDs: [Self.uuid], schedule: ScanSchedule(restartEvery: .seconds(1)), clock: clock)
        let relevant: @Sendable (FakeBlueZ.Call) -> Bool = { $0 == .stopDiscovery || $0 == .startDiscovery }
        #expect(await fake.calls.next(where: relevant) == .startDiscovery)
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(300))
        #expect(clock.deadlines == [.seconds(1)])
        discovery.lookAgain()
        #expect(await fake.calls.next(where: relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: relevant) == .startDiscovery)
        await clock.waitForSleepers()
        #expect(clock.deadlines == [.milliseconds(1300)])
        await discovery.stop()
    }

    @Test func runsTheStoppedWorkBetweenStopAndStart() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        // The work makes a call the fake records in line with the others.
        let marker: [String: Value] = ["Transport": .string("auto")]
        let discovery = try await adapter.discover(
            serviceUUIDs: [Self.uuid], schedule: ScanSchedule(restartEvery: .milliseconds(20)),
            whileStopped: { try? await adapter.call("SetDiscoveryFilter", marker) })
        let relevant: @Sendable (FakeBlueZ.Call) -> Bool = {
            $0 == .stopDiscovery || $0 == .startDiscovery || $0 == .setDiscoveryFilter(marker)
        }
        #expect(await fake.calls.next { $0 == .startDiscovery } == .startDiscovery)
        for _ in 0..<2 {
            #expect(await fake.calls.next(where: relevant) == .stopDiscovery)
            #expect(await fake.calls.next(where: relevant) == .setDiscoveryFilter(marker))
            #expect(await fake.calls.next(where: relevant) == .startDiscovery)
        }
        await discovery.stop()
    }

    @Test func anAppsDiscoverableDeviceIsRemovedAtEachRestartSoItsNextNameIsRead() async throws {
        let bus = try await TestBus.start()
        let fake = try await FakeBlueZ.start(on: bus)
        let adapter = try await BlueZ(bus: try await bus.connect()).adapter("hci0")
        let discovery = try await adapter.discover(
            serviceUUIDs: [Self.uuid], schedule: ScanSchedule(restartEvery: .milliseconds(300)))
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
        while !(discoverable.count == 3 && pairedHeardAgain), let event = try await events.next() {
            guard case .sighting(let sighting) = event else { continue }
            discoverable[sighting.address] = sighting.isDiscoverable
            if sighting.rssi == -61 { pairedHeardAgain = true }
        }
        #expect(discoverable == ["4A:00:00:00:00:01": true, "22:22:22:22:22:22": false, "6C:00:00:00:00:03": true])
        let relevant: @Sendable (FakeBlueZ.Call) -> Bool = {
            if case .removeDevice = $0 { return true }
            return $0 == .stopDiscovery || $0 == .startDiscovery
        }
        // Removed while still scanning: not in the gap, where it would be time deaf.
        #expect(await fake.calls.next(where: relevant) == .removeDevice(fake.devicePath("4A:00:00:00:00:01", on: "hci0")))
        #expect(await fake.calls.next(where: relevant) == .stopDiscovery)
        #expect(await fake.calls.next(where: relevant) == .startDiscovery)
        await discovery.stop()
    }

    /// The fake follows the advertisement's `PropertiesChanged` on a task of its
    /// own, unordered against method calls; so the body waits, inside the pause,
    /// until the fake has seen the change. Every wait is for an event that comes
    /// whether `pausing` is right or wrong, so a wrong order fails an expectation
    /// instead of hanging; the time limit guards against a fake that stops talking.
    @Test(.timeLimit(.minutes(1)))
    func pausingStopsScanningAroundTheBody() async throws {
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
        try await discovery.pausing(settle: .zero) {
            try await ad.update(localName: "010102Ann")
            #expect(await fake.calls.next(where: relevant) == .stopDiscovery)
            let change = await fake.calls.next(where: relevant)
            #expect(change == .advertisementChanged(ad.path, ["LocalName": .string("010102Ann")]))
        }
        // Stopping adds a StopDiscovery, so a pause that did not scan again fails here too.
        await discovery.stop()
        #expect(await fake.calls.next(where: relevant) == .startDiscovery)
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

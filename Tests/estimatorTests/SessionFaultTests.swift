import BlueZTestSupport
import DBus
import DBusTestSupport
import Foundation
import Radio
import Testing

/// The radio's faults, fast, over the real binary: the session's BlueZ radio
/// against the fake bluetoothd going away and coming back, its adapter
/// unplugged or powered off and back, and a system bus that is absent or
/// refuses us. A `watch` on a pipe follows the session's radio state (its
/// `radio:` lines), so every step waits on an event, not a clock.
@Suite(.timeLimit(.minutes(1))) struct SessionFaultTests {
    static let ok = "radio: advertising and scanning"

    /// The fake's next registration of an advertisement named `localName`.
    static func registration(of localName: String, on fake: FakeBlueZ) async -> Bool {
        await fake.calls.next {
            if case .registered(_, let properties) = $0 { properties["LocalName"]?.string == localName } else { false }
        } != nil
    }

    /// Joins channel 1 as Ann, picking `card` if given, and starts a `watch`
    /// that has seen the radio working.
    static func joinAndWatch(_ sandbox: SessionSandbox, picking card: String? = nil) async throws -> RunningEstimator {
        try await sandbox.run("join", "--channel", "1", "--name", "Ann")
        if let card { try await sandbox.run("pick", card) }
        let watch = try sandbox.launch("watch", "--adapter", "hci0")
        #expect(try await watch.nextLine(matching: ok) != nil)
        return watch
    }

    /// Waits for `watch` to see the radio working again, then leaves and ends the watch.
    static func leaveOnceRecovered(_ sandbox: SessionSandbox, _ watch: RunningEstimator) async throws {
        #expect(try await watch.nextLine(matching: ok) != nil)
        try await sandbox.run("leave")
        _ = try await offPool { watch.finish() }
    }

    @Test func bluetoothdGoingAwayIsReportedAndItsReturnReRegisters() async throws {
        let sandbox = try await SessionSandbox.start()
        let watch = try await Self.joinAndWatch(sandbox)

        try sandbox.system.fake.crash()
        let gone = "radio: \(RadioError.bluetoothdAbsent.description)"
        #expect(try await watch.nextLine(matching: gone) != nil)
        // Everything ends at once when bluetoothd goes; the last word is still this one.
        #expect(try await sandbox.run("status").stdout.hasSuffix("; radio: \(RadioError.bluetoothdAbsent.description)\n"))
        let picked = try await sandbox.run("pick", "5")
        #expect(picked.stdout.hasPrefix("picked 5; on the air once the radio is back"))

        let returned = try await FakeBlueZ.start(on: sandbox.system.bus, adapters: ["hci0", "hci1"])
        #expect(await Self.registration(of: "010105Ann", on: returned), "re-registered with the card picked meanwhile")
        try await Self.leaveOnceRecovered(sandbox, watch)
    }

    @Test func adapterUnpluggedAndBack() async throws {
        let sandbox = try await SessionSandbox.start()
        let watch = try await Self.joinAndWatch(sandbox)
        let fake = try sandbox.system.fake

        try await fake.removeAdapter("hci0")
        #expect(try await watch.nextLine(matching: "radio: \(RadioError.adapterNotFound("hci0").description)") != nil)
        try await sandbox.run("pick", "8")
        try await fake.addAdapter("hci0")
        #expect(await Self.registration(of: "010108Ann", on: fake))
        try await Self.leaveOnceRecovered(sandbox, watch)
    }

    @Test func advertisementReleasedWhileTheAdapterStaysIsRegisteredAgain() async throws {
        let sandbox = try await SessionSandbox.start()
        let watch = try await Self.joinAndWatch(sandbox, picking: "3")
        let fake = try sandbox.system.fake

        try await fake.releaseAdvertisements(of: "hci0")
        #expect(try await watch.nextLine(matching: "radio: \(RadioError.advertisementReleased.description)") != nil)
        #expect(await Self.registration(of: "010103Ann", on: fake), "registered again, with the card")
        try await Self.leaveOnceRecovered(sandbox, watch)
    }

    @Test func adapterPoweredOffAndOn() async throws {
        let sandbox = try await SessionSandbox.start()
        let watch = try await Self.joinAndWatch(sandbox)
        let fake = try sandbox.system.fake

        try fake.setPowered("hci0", false)
        #expect(try await watch.nextLine(matching: "radio: \(RadioError.adapterPoweredOff("hci0").description)") != nil)
        try await sandbox.run("pick", "13")
        try fake.setPowered("hci0", true)
        #expect(await Self.registration(of: "01010DAnn", on: fake))
        try await Self.leaveOnceRecovered(sandbox, watch)
    }

    /// A loss while a retried restart waits for bluetoothd's reply to its
    /// registration (the adapter powered off and on again): that start
    /// works, but the radio it started may be gone with the power, so the
    /// session starts once more (`RadioRestarts`), and ends with one
    /// advertisement, working. A retry runs beside the radio's events,
    /// which the watch shows taken while its reply is held.
    @Test func aRetryOvertakenByAPowerCycleStartsAgain() async throws {
        let sandbox = try await SessionSandbox.start()
        let watch = try await Self.joinAndWatch(sandbox, picking: "3")
        let fake = try sandbox.system.fake
        let off = "radio: \(RadioError.adapterPoweredOff("hci0").description)"

        // Powered off, the advertisement dropped, and every slot taken
        // meanwhile: the adapter's return is refused, and tried again.
        try fake.setPowered("hci0", false)
        #expect(try await watch.nextLine(matching: off) != nil)
        try await fake.releaseAdvertisements(of: "hci0")
        #expect(try await watch.nextLine(matching: "radio: \(RadioError.advertisementReleased.description)") != nil)
        #expect(try await watch.nextLine(matching: off) != nil, "its restart is refused")
        fake.fillAdvertisingSlots(of: "hci0")
        try fake.setPowered("hci0", true)
        #expect(try await watch.nextLine(matching: "radio: \(RadioError.noAdvertisingSlot("hci0").description)") != nil)

        fake.holdRegistrations()
        fake.freeAdvertisingSlots(of: "hci0")
        #expect(await Self.registration(of: "010103Ann", on: fake), "the retry registers; its reply is held")
        try fake.setPowered("hci0", false)
        #expect(try await watch.nextLine(matching: off) != nil, "the loss is taken while the retry runs")
        try fake.setPowered("hci0", true)
        fake.releaseRegistrations()
        #expect(try await watch.nextLine(matching: Self.ok) != nil)
        // Every call of the restart was made by then; the last wait on the calls.
        let again = await fake.calls.next(within: .seconds(5)) { if case .unregistered = $0 { true } else { false } }
        #expect(again != nil, "the overtaken start's advertisement is taken back, to register again")
        #expect(fake.activeAdvertisements(of: "hci0") == 1)
        try await sandbox.run("leave")
        _ = try await offPool { watch.finish() }
    }

    /// A system bus that is not there, one with nobody owning org.bluez, one
    /// whose policy refuses us: `join` and `watch` say so in one sentence
    /// with their sysexits code, and `join` leaves nothing behind.
    @Test(arguments: [
        ("absent", 69, "The D-Bus system bus is not reachable"),
        ("no bluetoothd", 69, "bluetoothd is not running"),
        ("policy", 77, "BlueZ refused access"),
    ])
    func systemBusTrouble(kind: String, code: Int32, sentence: String) async throws {
        let system = try await FakeSystem.start(bluetoothd: kind == "policy",
                                                policy: kind == "policy" ? TestBus.policyDenyingBlueZ : nil)
        if kind == "absent" { system.bus.kill() }
        let sandbox = try await SessionSandbox.start(system)
        for command in [["join", "--channel", "1", "--name", "Ann"], ["watch", "--adapter", "hci0"]] {
            let result = try await sandbox.run(arguments: command)
            #expect(result.status == code, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: \(sentence)"), "\(command)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(command): one line")
            #expect(result.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.configFile), "a failed join remembers nothing")
        #expect(try await sandbox.run("status").status == 69, "no session is left behind")
    }
}

extension RunningEstimator {
    /// Reads the output's lines until one is `line`; nil at the end of output.
    func nextLine(matching line: String) async throws -> String? {
        try await offPool {
            while true {
                let next = try out.readLine()
                if next.isEmpty { return nil }
                if next.dropLast() == line { return line }
            }
        }
    }
}

import BlueZTestSupport
import DBusTestSupport
import Diagnostics
import Foundation
import Testing

/// `estimator doctor`, the built binary, against the fake bluetoothd on a
/// private bus. This machine's kernel has no AF_BLUETOOTH, so the kernel
/// check fails here, cleanly: every case exits 69.
@Suite(.timeLimit(.minutes(2))) struct DoctorTests {
    @Test func theRelayBrokerCheckReadsTheSessionsRelayState() {
        let url = "mqtts://b.example:8883/r"
        #expect(RelayDoctor.broker(adapter: "none", state: "\(url) connected").passed)
        #expect(RelayDoctor.broker(adapter: "none", state: "\(url) connected; the relay process was restarted 2 times").passed)
        let restarting = RelayDoctor.broker(
            adapter: "hci0", state: "\(url) restarting the relay (the relay process was killed by signal 9); trying again in 0.6 s")
        #expect(restarting.outcome == .failed(fix: "the session starts the relay again by itself; if it keeps ending, see the session's log"))
        #expect(restarting.finding.hasPrefix("hci0: \(url) restarting"))
        guard case let .failed(fix) = RelayDoctor.broker(adapter: "none", state: "\(url) refused (bad user name or password)").outcome
        else { Issue.record("a refusal passed"); return }
        #expect(fix.contains("--relay-user"))
        #expect(!RelayDoctor.broker(adapter: "none", state: "\(url) reconnecting (connection lost)").passed)
    }

    /// Doctor's lines other than the kernel's (which depend on the machine).
    static func lines(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("✘ kernel:") && !$0.hasPrefix("    fix: load") }
    }

    @Test func allGoodButTheKernelSaysWhyCleanly() async throws {
        let sandbox = try await SessionSandbox.start()
        let result = try await sandbox.run("doctor")
        #expect(result.status == 69)
        #expect(Self.lines(result.stdout) == [
            "✔ system bus: reachable",
            "✔ org.bluez: bluetoothd is on the system bus",
            "✔ D-Bus policy: this user may talk to bluetoothd",
            "✔ adapters: hci0, hci1; using hci0",
            "✔ adapter powered: hci0 is on",
            "· rfkill: not checked: needs Bluetooth in the kernel",
            "✔ advertising slots: 5 of 5 free",
            "✔ radio schedule: strict: restarts every 1500 ms ± 500 ms, scanning paused for each change and "
                + "announcement, announced again at each restart; hci0 advertises with legacy commands (it refuses a "
                + "new random address while scanning)",
            "1 problem; fix it and run `estimator doctor` again.",
        ])
        #expect(result.stdout.contains("✘ kernel: no Bluetooth support (AF_BLUETOOTH is missing)\n"))
        #expect(!result.stdout.contains("✔ rfkill"), "no pass for switches a kernel without Bluetooth cannot have")
        #expect(result.stderr.isEmpty)
    }

    @Test func anExtendedControllerRunsTheLightSchedule() async throws {
        let sandbox = try await SessionSandbox.start(try await FakeSystem.start(extended: ["hci1"]))
        let light = try await sandbox.run("doctor", "--adapter", "hci1")
        #expect(light.stdout.contains(
            "✔ radio schedule: light: restarts every 1500 ms ± 500 ms, changes made while scanning, the advertisement "
            + "left alone between changes; hci1 has extended advertising (its set takes a new random address while "
            + "scanning)\n"), "\(light.stdout)")
        let strict = try await sandbox.run("doctor", "--adapter", "hci0", "--json")
        #expect(strict.stdout.contains(#"{"check":"radio schedule","result":"passed","finding":"strict: "#),
                "\(strict.stdout)")
    }

    @Test func bluetoothdAbsent() async throws {
        let sandbox = try await SessionSandbox.start(try await FakeSystem.start(bluetoothd: false))
        let result = try await sandbox.run("doctor")
        #expect(result.status == 69)
        #expect(result.stdout.hasPrefix("""
            ✔ system bus: reachable
            ✘ org.bluez: bluetoothd is not running
                fix: `sudo systemctl start bluetooth`
            · D-Bus policy: not checked: needs bluetoothd
            · adapters: not checked: needs bluetoothd
            · adapter powered: not checked: needs bluetoothd

            """))
        #expect(result.stdout.contains("· advertising slots: not checked: needs an adapter\n"))
    }

    @Test func systemBusAbsent() async throws {
        let system = try await FakeSystem.start(bluetoothd: false)
        system.bus.kill()
        let sandbox = try await SessionSandbox.start(system)
        let result = try await sandbox.run("doctor")
        #expect(result.status == 69)
        #expect(result.stdout.hasPrefix("✘ system bus: not reachable ("))
        #expect(!result.stdout.contains("system bus is not reachable"), "the line does not say its cause twice")
        #expect(result.stdout.contains("· org.bluez: not checked: needs the system bus\n"))
    }

    @Test func chosenAdapterPoweredOff() async throws {
        let sandbox = try await SessionSandbox.start()
        try sandbox.system.fake.setPowered("hci0", false)
        let result = try await sandbox.run("doctor", "--adapter", "hci0")
        #expect(result.status == 69)
        #expect(result.stdout.contains("""
            ✘ adapter powered: hci0 is powered off
                fix: `bluetoothctl power on` (or `sudo btmgmt --index hci0 power on`)

            """))
        #expect(result.stdout.contains("✔ adapters: hci0, hci1; using hci0\n"))
        #expect(result.stdout.contains("· advertising slots: not checked: needs hci0 powered on\n"), "a consequence, not a second problem")
        let problems = result.stdout.split(separator: "\n").filter { $0.hasPrefix("✘") && !$0.hasPrefix("✘ kernel:") }
        #expect(problems.count == 1)
    }

    @Test func withoutAnAdapterTheFirstPoweredOneIsChecked() async throws {
        let sandbox = try await SessionSandbox.start()
        try sandbox.system.fake.setPowered("hci0", false)
        let result = try await sandbox.run("doctor")
        #expect(result.stdout.contains("✔ adapter powered: hci1 is on\n"))
    }

    @Test func unknownAdapterNamesTheOthers() async throws {
        let sandbox = try await SessionSandbox.start()
        let result = try await sandbox.run("doctor", "--adapter", "hci7")
        #expect(result.status == 69)
        #expect(result.stdout.contains("✘ adapters: no adapter hci7 among hci0, hci1\n    fix: choose one of them with --adapter\n"))
    }

    @Test func noAdvertisingSlotFree() async throws {
        let sandbox = try await SessionSandbox.start()
        try sandbox.system.fake.fillAdvertisingSlots(of: "hci0")
        let result = try await sandbox.run("doctor", "--adapter", "hci0")
        #expect(result.status == 69)
        #expect(result.stdout.contains("""
            ✘ advertising slots: all 5 slots of hci0 are taken
                fix: stop other advertisers (`bluetoothctl advertise off`)

            """))
    }

    @Test func policyRefusingUs() async throws {
        let sandbox = try await SessionSandbox.start(try await FakeSystem.start(policy: TestBus.policyDenyingBlueZ))
        let result = try await sandbox.run("doctor")
        #expect(result.status == 69)
        #expect(result.stdout.contains("✔ org.bluez: bluetoothd is on the system bus\n"))
        #expect(result.stdout.contains("✘ D-Bus policy: bluetoothd refused us: "))
        #expect(result.stdout.contains("    fix: add yourself to the group the policy allows"))
    }

    @Test func anAdapterByItsAddress() async throws {
        let sandbox = try await SessionSandbox.start()
        // The fake bluetoothd's hci1.
        let result = try await sandbox.run("doctor", "--adapter", "00:aa:01:01:00:01")
        #expect(result.stdout.contains("✔ adapters: hci0, hci1; using hci1\n"), "\(result.stdout)\(result.stderr)")
    }

    @Test func jsonHasEveryCheckWithStableKeys() async throws {
        let sandbox = try await SessionSandbox.start()
        try sandbox.system.fake.setPowered("hci0", false)
        let result = try await sandbox.run("doctor", "--adapter", "hci0", "--json")
        #expect(result.status == 69)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1, "exactly one JSON object")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["ok"] as? Bool == false)
        let checks = try #require(json["checks"] as? [[String: Any]])
        #expect(checks.map { $0["check"] as? String } == ["system bus", "org.bluez", "D-Bus policy", "adapters", "adapter powered",
                                                          "kernel", "rfkill", "advertising slots", "radio schedule"])
        #expect(checks[4]["result"] as? String == "failed")
        #expect(checks[4]["fix"] as? String == "`bluetoothctl power on` (or `sudo btmgmt --index hci0 power on`)")
        #expect(checks[0]["fix"] is NSNull)
        #expect(json["problems"] as? Int == checks.filter { $0["result"] as? String == "failed" }.count)
        #expect(result.stdout.hasPrefix(#"{"ok":false,"problems":"#))
        #expect(result.stdout.contains(#"{"check":"system bus","result":"passed","finding":"reachable","fix":null}"#))
    }

    @Test func badAdapterIsUsage() async throws {
        let sandbox = try await SessionSandbox.start()
        let result = try await sandbox.run("doctor", "--adapter", "../x")
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: "))
    }

    @Test func linesAreSanitisedAndHaveAnASCIIForm() {
        let check = DoctorCheck.fail("kernel", "hci0 says \u{1B}]52;c;aGk=\u{07}hi", fix: "x\u{1B}[2J")
        let lines = check.lines(unicode: false)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("XX kernel: hci0 says "))
        #expect(!lines.joined().contains("\u{1B}") && !lines.joined().contains("\u{07}"))
    }

    @Test func rfkillReadsBluetoothSwitchesOnly() throws {
        let root = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (name, type, soft, hard) in [("rfkill0", "wlan", "1", "0"), ("rfkill1", "bluetooth", "1", "0"),
                                         ("rfkill2", "bluetooth", "0", "0")] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(name)", withIntermediateDirectories: true)
            for (file, text) in [("type", type), ("soft", soft), ("hard", hard)] {
                try "\(text)\n".write(toFile: "\(root)/\(name)/\(file)", atomically: true, encoding: .utf8)
            }
        }
        #expect(RfkillSwitch.bluetooth(under: root) == [
            RfkillSwitch(name: "rfkill1", isSoftBlocked: true, isHardBlocked: false),
            RfkillSwitch(name: "rfkill2", isSoftBlocked: false, isHardBlocked: false),
        ])
        #expect(RfkillSwitch.bluetooth(under: root + "/absent").isEmpty)
    }
}

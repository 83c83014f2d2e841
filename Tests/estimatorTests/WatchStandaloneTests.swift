import BlueZTestSupport
import DBusTestSupport
import Foundation
import Testing

/// `estimator watch` with no session: the built binary scans by itself on
/// the fake bluetoothd's adapters, advertising nothing.
@Suite(.timeLimit(.minutes(2))) struct WatchStandaloneTests {
    static let uuid = "FB3367FD-09F8-4E08-9F6B-07E309FD2576"

    @Test func jsonSeesAnAdvertiserAndAdvertisesNothing() async throws {
        let sandbox = try await SessionSandbox.start()
        let fake = try sandbox.system.fake
        let watch = try sandbox.launch("watch", "--json", "--adapter", "hci1")
        var calls = fake.calls.makeAsyncIterator()
        var registered = false
        while let call = await calls.next(), call != .startDiscovery {
            if case .registered = call { registered = true }
        }
        let alice = try fake.advertise("AA:00:00:00:00:01", on: "hci1", name: "010105Alice", rssi: -50, uuids: [Self.uuid])
        defer { alice.cancel() }
        let line = try await offPool { try watch.out.readLine() }
        // A vote stays hidden until the room has been heard and everyone voted.
        #expect(line.hasPrefix(#"{"event":"joined","channel":1,"round":null,"name":"Alice","card":"hidden","cardRaw":null,"rssi":-50,"#),
                "\(line)")
        let revealed = try await offPool { try watch.out.readLine() }
        #expect(revealed.hasPrefix(#"{"event":"revealed","channel":1,"round":null,"cards":[{"name":"Alice","card":"5","cardRaw":"05"}],"#),
                "\(revealed)")
        kill(watch.process.processIdentifier, SIGINT)
        while let call = await calls.next(), call != .stopDiscovery {
            if case .registered = call { registered = true }
        }
        let (_, errText) = try await offPool { watch.finish() }
        #expect(watch.process.terminationStatus == 0, "\(errText)")
        #expect(!registered, "a watch without a session advertises nothing")
    }

    @Test func aRoundHeardIsAnnouncedAndHidesTheVotesAgain() async throws {
        let sandbox = try await SessionSandbox.start()
        let fake = try sandbox.system.fake
        // Alice is heard twice, the watch's wall clock running between: a
        // loaded machine can take longer than the default 6 s, and a stale
        // line is not what this test is about.
        let watch = try sandbox.launch("watch", "--json", "--adapter", "hci1", "--stale", "600")
        _ = await fake.calls.next { $0 == .startDiscovery }
        let alice = try fake.advertise("AA:00:00:00:00:01", on: "hci1", name: "210105Alice", rssi: -50, uuids: [Self.uuid])
        defer { alice.cancel() }
        let joined = try await offPool { try watch.out.readLine() }
        #expect(joined.contains(#""event":"joined","channel":1,"round":1,"name":"Alice","card":"hidden""#), "\(joined)")
        let revealed = try await offPool { try watch.out.readLine() }
        #expect(revealed.contains(#""event":"revealed","channel":1,"round":1,"cards":[{"name":"Alice","card":"5""#), "\(revealed)")
        try fake.deviceFound("AA:00:00:00:00:01", on: "hci1", name: "2201FCAlice", rssi: -50, uuids: [Self.uuid])
        let round = try await offPool { try watch.out.readLine() }
        #expect(round.hasPrefix(#"{"event":"round","channel":1,"round":2,"title":null,"#), "\(round)")
        let cleared = try await offPool { try watch.out.readLine() }
        #expect(cleared.contains(#""event":"card","channel":1,"round":2,"name":"Alice","card":"waiting","cardRaw":"FC""#), "\(cleared)")
        kill(watch.process.processIdentifier, SIGINT)
        _ = try await offPool { watch.finish() }
    }

    @Test func everyChannelWithoutChannelAndTheRememberedAdapter() async throws {
        let sandbox = try await SessionSandbox.start()
        let fake = try sandbox.system.fake
        try FileManager.default.createDirectory(
            atPath: sandbox.root + "/config/estimator", withIntermediateDirectories: true)
        try #"{"channel":3,"name":"Me","adapter":"hci1"}"#.write(toFile: sandbox.configFile, atomically: true, encoding: .utf8)
        let watch = try sandbox.launch("watch")  // a pipe: a line per change
        #expect(try await offPool { try watch.out.readLine() } == "radio: scanning on hci1\n")
        _ = await fake.calls.next { $0 == .startDiscovery }
        let alice = try fake.advertise("AA:00:00:00:00:01", on: "hci1", name: "010105Alice", rssi: -50, uuids: [Self.uuid])
        let bob = try fake.advertise("AA:00:00:00:00:02", on: "hci1", name: "0102FEBob", rssi: -60, uuids: [Self.uuid])
        defer { alice.cancel(); bob.cancel() }
        // Each is found a second after they are first heard, whichever first.
        let both = try await offPool { try watch.out.readLine() + watch.out.readLine() }
        #expect(both.contains(" channel 1 Alice joined with a hidden card (-50 dBm)"), "\(both)")
        #expect(both.contains(" channel 2 Bob joined with a hidden card (-60 dBm)"), "\(both)")
        kill(watch.process.processIdentifier, SIGTERM)
        let (_, errText) = try await offPool { watch.finish() }
        #expect(watch.process.terminationStatus == 0, "\(errText)")
    }

    @Test func aChannelShowsOnlyThatChannel() async throws {
        let sandbox = try await SessionSandbox.start()
        let fake = try sandbox.system.fake
        let watch = try sandbox.launch("watch", "--json", "--channel", "2")
        _ = await fake.calls.next { $0 == .startDiscovery }
        let alice = try fake.advertise("AA:00:00:00:00:01", name: "010105Alice", rssi: -50, uuids: [Self.uuid])
        let bob = try fake.advertise("AA:00:00:00:00:02", name: "010203Bob", rssi: -60, uuids: [Self.uuid])
        defer { alice.cancel(); bob.cancel() }
        let line = try await offPool { try watch.out.readLine() }
        #expect(line.contains(#""channel":2,"round":null,"name":"Bob""#), "\(line)")
        kill(watch.process.processIdentifier, SIGINT)
        let (rest, _) = try await offPool { watch.finish() }
        #expect(!rest.contains("Alice"))
    }

    static let failures: [(system: FailingSystem, arguments: [String], code: Int32, sentence: String)] = [
        (.noBluetoothd, [], 69, "Error: bluetoothd is not running; start it with `sudo systemctl start bluetooth` (`estimator doctor` checks the rest).\n"),
        (.noBus, [], 69, "Error: The D-Bus system bus is not reachable; start it with `sudo systemctl start dbus`, then run `estimator doctor`.\n"),
        (.fine, ["--adapter", "hci7"], 69,
         "Error: There is no Bluetooth adapter hci7; plug one in or pick another with --adapter (see `estimator doctor`).\n"),
        (.poweredOff, ["--adapter", "hci0"], 69,
         "Error: hci0 is powered off; turn it on with `bluetoothctl power on` (`estimator doctor` says what else blocks it).\n"),
        (.noAdapters, [], 69, "Error: There is no Bluetooth adapter; plug one in (see `estimator doctor`).\n"),
    ]

    @Test(arguments: failures)
    func failuresAreOneSentence(system: FailingSystem, arguments: [String], code: Int32, sentence: String) async throws {
        let sandbox = try await SessionSandbox.start(try await system.start())
        let result = try await sandbox.run(arguments: ["watch"] + arguments)
        #expect(result.status == code)
        #expect(result.stderr == sentence)
    }
}

/// Systems that stop a standalone watch before it starts.
enum FailingSystem: Sendable, CustomTestStringConvertible {
    case fine, noBluetoothd, noBus, poweredOff, noAdapters

    func start() async throws -> FakeSystem {
        switch self {
        case .fine: return try await FakeSystem.start()
        case .noBluetoothd: return try await FakeSystem.start(bluetoothd: false)
        case .noAdapters: return try await FakeSystem.start(adapters: [])
        case .noBus:
            let system = try await FakeSystem.start(bluetoothd: false)
            system.bus.kill()
            return system
        case .poweredOff:
            let system = try await FakeSystem.start()
            try system.fake.setPowered("hci0", false)
            return system
        }
    }

    var testDescription: String { "\(self)" }
}

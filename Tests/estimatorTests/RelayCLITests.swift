import DBusTestSupport
import EstimatorKit
import Foundation
import SessionDaemon
import Testing

/// The payload `estimator` publishes for a packet, as mosquitto_sub's %x shows it.
private func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() }

/// Sessions meeting through a real mosquitto: publishing,
/// retained state, the last will, leaving, reconnecting, refusals and
/// forwarding, each through the built `estimator` and `estimator-relay`
/// (hostile messages: `RelayHostileBrokerCLITests`).
@Suite(.timeLimit(.minutes(2))) struct RelayCLITests {
    @Test func joinPublishesRetainedOverTLSAndLeaveClears() async throws {
        let broker = try await TestBroker.start(tls: true)
        let sub = try await broker.subscribe()
        defer { sub.stop() }
        let ann = try Teammate("Ann"), bob = try Teammate("Bob")

        let joined = try await ann.join(broker)
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.contains("relay connected to \(broker.url)"), "\(joined.stdout)")
        let first = try await sub.lines.next { $0.contains("[\(hex("0103FCAnn"))]") }
        let annTopic = String(first.split(separator: " ")[0])
        #expect(annTopic.hasPrefix("estimator/1/room/3/"))
        let config = try String(contentsOfFile: ann.configFile, encoding: .utf8)
        #expect(config.contains(#""relay":"mqtts://127.0.0.1:"#) && config.contains(#""relayUser":"ann""#))
        #expect(!config.contains(TestBroker.password), "no password in config.json")

        let doctor = try await ann.run("doctor")
        #expect(doctor.status == 0, "\(doctor.stdout)")
        #expect(doctor.stdout.contains("✔ relay broker: none: \(broker.url) connected"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("system bus"), "no Bluetooth checks for --adapter none")

        try await ann.run("pick", "8", "--adapter", "none")
        try await sub.lines.next { $0 == "\(annTopic) [\(hex("010308Ann"))] 0" }

        // Bob joins after: the broker hands him Ann's retained packet.
        #expect(try await bob.join(broker).status == 0)
        let (watch, lines) = try bob.watch("--json", "--open")
        try await lines.next {
            $0.contains(#""event":"joined""#) && $0.contains(#""name":"Ann""#) && $0.contains(#""cardRaw":"08""#)
                && $0.contains(#""heard":"relay""#)
        }
        let status = try await bob.run("status", "--adapter", "none")
        #expect(status.stdout.contains("1 person heard in channel 3"), "\(status.stdout)")
        #expect(status.stdout.contains("relay: \(broker.url) connected"), "\(status.stdout)")

        // A pick travels session → relay → broker → relay → session.
        let start = ContinuousClock.now
        try await ann.run("pick", "5", "--adapter", "none")
        try await lines.next { $0.contains(#""name":"Ann""#) && $0.contains(#""cardRaw":"05""#) }
        print("FIGURE relay pick -> visible at a remote watch: \(start.duration(to: .now))")

        // Rounds Bob starts reach Ann through the broker. The first one she
        // adopts (keeping her card only if she has been listening under 4 s);
        // the next one clears it (round 2, card FC). Bob, whom she hears
        // through her relay alone, has not voted: she holds the reveal
        // (version 4R: 41, then 42). Without a radio her kept vote goes
        // out sealed (FB) until the round is revealed.
        // With a round, her meeting of it follows her packet (docs/PROTOCOL.md, Meeting).
        #expect(try await bob.run("round", "--adapter", "none").status == 0)
        try await sub.lines.next {
            $0.hasPrefix("\(annTopic) [\(hex("4103FBAnn"))0001") || $0.hasPrefix("\(annTopic) [\(hex("4103FCAnn"))0001")
        }
        #expect(try await bob.run("round", "--adapter", "none").status == 0)
        try await sub.lines.next { $0.hasPrefix("\(annTopic) [\(hex("4203FCAnn"))0002") }

        // Leaving clears Ann's topic, and Bob drops her at once.
        #expect(try await ann.run("leave", "--adapter", "none").status == 0)
        try await sub.lines.next { $0 == "\(annTopic) [] 0" }
        try await lines.next { $0.contains(#""event":"left""#) && $0.contains(#""name":"Ann""#) && $0.contains(#""heard":"relay""#) }
        #expect(try await bob.run("leave", "--adapter", "none").status == 0)
        _ = try await offPool { watch.finish() }
    }

    @Test func lastWillClearsTheTopicWhenTheRelayIsKilled() async throws {
        let broker = try await TestBroker.start(tls: false)
        let sub = try await broker.subscribe()
        defer { sub.stop() }
        let (ann, joined, topic) = try await annJoined(broker, sub)
        #expect(joined.stderr.contains("plain MQTT"), "mqtt:// is warned about")
        let (session, relay) = try ann.sessionAndRelay(joined)
        kill(relay, SIGKILL)
        kill(session, SIGKILL)
        try await sub.lines.next { $0 == "\(topic) [] 0" }
    }

    @Test func aKilledRelayIsStartedAgainAndStatusSaysSo() async throws {
        let broker = try await TestBroker.start(tls: false)
        let sub = try await broker.subscribe()
        defer { sub.stop() }
        let (ann, joined, oldTopic) = try await annJoined(broker, sub)
        let (_, relay) = try ann.sessionAndRelay(joined)
        kill(relay, SIGKILL)
        // The broker clears the dead relay's topic (its last will); the
        // session starts a new relay, which publishes Ann under its own id.
        try await sub.lines.next { $0 == "\(oldTopic) [] 0" }
        let again = try await sub.lines.next { $0.contains("[\(hex("0103FCAnn"))]") }
        #expect(!again.hasPrefix(oldTopic + " "))
        let (_, newRelay) = try ann.sessionAndRelay(joined)
        #expect(newRelay != relay)

        let status = try await ann.run("status", "--adapter", "none")
        #expect(status.stdout.contains("relay: \(broker.url) connected; the relay process was restarted 1 time"), "\(status.stdout)")
        let doctor = try await ann.run("doctor")
        #expect(doctor.stdout.contains("✔ relay broker: none: \(broker.url) connected; the relay process was restarted 1 time"),
                "\(doctor.stdout)")
        let log = try String(contentsOfFile: ann.log, encoding: .utf8)
        #expect(log.contains("restarting the relay (the relay process was killed by signal 9); trying again in "), "\(log)")
        #expect(try await ann.run("leave", "--adapter", "none").status == 0)
        try await sub.lines.next { $0.contains("[] 0") && !$0.hasPrefix(oldTopic + " ") }
    }

    @Test func reconnectsAndRepublishesAfterTheBrokerRestarts() async throws {
        let broker = try await TestBroker.start(tls: false)
        let ann = try Teammate("Ann")
        #expect(try await ann.join(broker).status == 0)
        let sub = try await broker.subscribe()
        try await sub.lines.next { $0.contains("[\(hex("0103FCAnn"))]") }
        sub.stop()
        // The broker keeps nothing across the restart: what a new subscriber
        // sees, the relay published again after reconnecting.
        try await broker.restart()
        let again = try await broker.subscribe()
        defer { again.stop() }
        let old = try await again.lines.next { $0.contains("[\(hex("0103FCAnn"))]") }
        let status = try await ann.run("status", "--adapter", "none")
        #expect(status.stdout.contains("/room connected"), "\(status.stdout)")
        #expect(!status.stdout.contains("down since"), "connected again: the outage is over")
        let log = try String(contentsOfFile: ann.log, encoding: .utf8)
        #expect(log.contains("reconnecting"), "the log tells of the loss")

        // Switching channel moves the topic: the old one is cleared, the
        // new one holds the packet (and the last will, after a reconnect).
        let switched = try await ann.run("join", "--adapter", "none", "--channel", "4")
        #expect(switched.status == 0, "\(switched.stderr)")
        let oldTopic = String(old.split(separator: " ")[0])
        try await again.lines.next { $0 == "\(oldTopic) [] 0" }
        let newTopic = oldTopic.replacingOccurrences(of: "/room/3/", with: "/room/4/")
        try await again.lines.next { $0 == "\(newTopic) [\(hex("0104FCAnn"))] 0" }
    }

    @Test func aBrokerNotReachableYetIsRetriedInTheBackground() async throws {
        let ann = try Teammate("Ann")
        // A port nobody listens on: the first port of a broker that was
        // started and stopped.
        let broker = try await TestBroker.start(tls: false)
        broker.stop()
        let joined = try await ann.join(broker)
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.contains("not reachable yet"), "\(joined.stdout)")
        let status = try await ann.run("status", "--adapter", "none")
        #expect(status.stdout.contains("reconnecting"), "\(status.stdout)")
        let doctor = try await ann.run("doctor")
        #expect(doctor.status == 69 && doctor.stdout.contains("✘ relay broker"), "\(doctor.stdout)")

        // The outage is a fact with its time: status says since when, and
        // so do `round` and `pick`, whose teammates beyond it hear nothing.
        let json = try await ann.run("status", "--adapter", "none", "--json")
        let since = try #require(JSONValue.parse(Array(json.stdout.utf8))["relayDownSince"]?.string.flatMap(RFC3339.timestamp),
                                 "\(json.stdout)")
        let clock = LocalTime.clock(since)
        #expect(status.stdout.contains("; down since \(clock), so teammates reached through it hear nothing"), "\(status.stdout)")
        let outage = "the relay has been down since \(clock), so teammates reached through it hear nothing until it is back "
            + "(`estimator status` says why)\n"
        let round = try await ann.run("round", "--adapter", "none", "ABC-1")
        #expect(round.stdout == "round 1 (ABC-1) began in channel 3; cards cleared; " + outage, "\(round.stdout)")
        let picked = try await ann.run("pick", "8", "--adapter", "none")
        #expect(picked.stdout == "picked 8 for ABC-1; " + outage, "\(picked.stdout)")
        #expect(try await ann.run("leave", "--adapter", "none").status == 0)
    }

    /// `join --foreground` with a broker nobody answers: its table says the
    /// relay is down, and since when, as `watch` does.
    @Test func theForegroundTableSaysTheRelayIsDown() async throws {
        let broker = try await TestBroker.start(tls: false)
        broker.stop()
        let sandbox = try await SessionSandbox.start()
        let fore = try sandbox.launch(arguments: ["join", "--foreground", "--channel", "9", "--name", "Fore", "--relay", broker.url],
                                      typing: true)
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("relay down since ") {
            let chunk = try await offPool { fore.out.fileHandleForReading.availableData }
            try #require(!chunk.isEmpty, "the session ended first: \(String(decoding: seen, as: UTF8.self))")
            seen += chunk
        }
        fore.type("q")
        let (_, errText) = try await offPool { fore.finish() }
        #expect(fore.process.terminationStatus == 0, "\(errText)")
    }

    /// `estimator-relay`, started by a session, reads its command line
    /// through ArgumentParser too: `--help` teaches it and exits 0; a
    /// mistake is one line with where the help is, exit 64.
    @Test func theRelaysHelpTeachesAndAMistakeIsOneLine() throws {
        let relay = EstimatorProcess.executable.deletingLastPathComponent().appendingPathComponent("estimator-relay").path
        func run(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
            let out = Pipe(), err = Pipe()
            let process = try ChildProcess(relay, arguments, output: out, error: err)
            let (stdout, stderr) = process.finish(out, err)
            return (process.terminationStatus, stdout, stderr)
        }
        let help = try run("--help")
        #expect(help.status == 0)
        #expect(help.stderr.isEmpty)
        #expect(help.stdout.contains("USAGE: estimator-relay --socket <path> --url <url> --channel <channel>"), "\(help.stdout)")
        for taught in ["--user <name>", "--password-file <file>", "--ca <file>", "--ready-fd <fd>", "--stale <seconds>",
                       "ESTIMATOR_RELAY_PASSWORD", "estimator join --relay"] {
            #expect(help.stdout.contains(taught), "\(taught)")
        }
        let missing = try run("--socket", "/nonexistent")
        #expect(missing.status == 64)
        #expect(missing.stderr == "estimator-relay: Missing expected argument '--url <url>'. See 'estimator-relay --help'.\n")
        let channel = try run("--socket", "/nonexistent", "--url", "mqtt://127.0.0.1/room", "--channel", "256")
        #expect(channel.status == 64)
        #expect(channel.stderr == "estimator-relay: The value '256' is invalid for '--channel <channel>': a channel is a whole number from 0 to 255. See 'estimator-relay --help'.\n")
        let room = try run("--socket", "/nonexistent", "--url", "mqtt://127.0.0.1/a/b", "--channel", "1")
        #expect(room.status == 64)
        #expect(room.stderr.hasPrefix("estimator-relay: ") && room.stderr.filter { $0 == "\n" }.count == 1, "\(room.stderr)")
    }

    @Test func badCredentialsAreOneSentenceAndExit77() async throws {
        let broker = try await TestBroker.start(tls: false)
        let ann = try Teammate("Ann")
        // URLs are checked before anything runs, or by the relay (the room).
        for url in ["https://b.example/room", "mqtt://127.0.0.1:\(broker.port)/a/b", "mqtt://127.0.0.1:0/room"] {
            let wrong = try await ann.run("join", "--adapter", "none", "--name", "Ann", "--relay", url)
            #expect(wrong.status == 64, "\(url): \(wrong.stderr)")
            #expect(wrong.stderr.split(separator: "\n").filter { !$0.hasPrefix("Warning:") }.count == 1, "\(wrong.stderr)")
        }
        let refused = try await ann.join(broker, password: "wrong")
        #expect(refused.status == 77)
        #expect(refused.stderr.split(separator: "\n").filter { !$0.hasPrefix("Warning:") }.count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("The broker \(broker.url) refused the login ("), "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix("); check the user name (--relay-user) and the password (ESTIMATOR_RELAY_PASSWORD or --relay-password-file).\n"),
                "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ann.configFile), "nothing remembered")
        #expect(try await ann.run("status", "--adapter", "none").status == 69, "no session left running")
        #expect(!FileManager.default.fileExists(atPath: "\(ann.root)/run/estimator/none.lock"), "nor its lock file (SessionLock.remove)")

        // No password at all: the sentence says which two ways give one.
        let none = try await ann.join(broker, password: nil)
        #expect(none.status == 77)
        #expect(none.stderr.contains("The broker \(broker.url) refused the login ("), "\(none.stderr)")
        #expect(none.stderr.hasSuffix("): no password was given; set ESTIMATOR_RELAY_PASSWORD or --relay-password-file FILE.\n"),
                "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ann.configFile), "nothing remembered")

        // A password file others can read is refused too; mode 0600 works.
        let file = "\(ann.root)/password"
        try TestBroker.password.write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let open = try await ann.join(broker, password: nil, extra: ["--relay-password-file", file])
        #expect(open.status == 77 && open.stderr.contains("0600"), "\(open.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let fine = try await ann.join(broker, password: nil, extra: ["--relay-password-file", file])
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(!(try String(contentsOfFile: ann.configFile, encoding: .utf8)).contains(TestBroker.password))
    }

    @Test func anUntrustedCertificateIsRefusedWithExit77() async throws {
        let broker = try await TestBroker.start(tls: true)
        let ann = try Teammate("Ann")
        let other = try await ann.join(broker, extra: ["--relay-ca", broker.otherCAFile])
        #expect(other.status == 77, "\(other.stderr)")
        #expect(other.stderr.contains("The certificate of the broker \(broker.url) is not trusted for 127.0.0.1 by the CA in \(broker.otherCAFile); give the broker's CA with --relay-ca FILE.\n"),
                "\(other.stderr)")
        // Without --relay-ca the system's CAs are used, which do not know the test CA.
        let system = try await ann.run("join", "--adapter", "none", "--channel", "1", "--name", "Ann", "--relay", broker.url,
                                       "--relay-user", TestBroker.user)
        #expect(system.status == 77, "\(system.stderr)")
        #expect(system.stderr.contains("is not trusted for 127.0.0.1 by the system's CAs; give the broker's CA with --relay-ca FILE.\n"),
                "\(system.stderr)")
        #expect(try await ann.run("status", "--adapter", "none").status == 69)
    }

    @Test func airPeersAreForwardedAndExpireWhenNoLongerHeard() async throws {
        let broker = try await TestBroker.start(tls: false)
        let sub = try await broker.subscribe()
        defer { sub.stop() }
        // Carol's session has Bluetooth (the fake bluetoothd) and the relay.
        let sandbox = try await SessionSandbox.start()
        try await carolJoinsWithRelay(sandbox, broker, stale: 2)
        let dave = try Teammate("Dave")
        #expect(try await dave.join(broker).status == 0)
        let (watch, lines) = try dave.watch("--json", "--open")

        // An app user Carol hears over the air reaches Dave through the broker.
        let topic = try await phoneForwarded(sandbox, address: "00:AD:00:00:00:01", sub)
        try await lines.next { $0.contains(#""event":"joined""#) && $0.contains(#""name":"Phone""#) && $0.contains(#""cardRaw":"05""#) }
        let seen = try await sandbox.run("watch", "--once", "--adapter", "hci0")
        let rows = seen.stdout.split(separator: "\n")
        #expect(rows.contains { $0.contains("Dave joined") && $0.hasSuffix("(relay)") },
                "Carol sees Dave through the relay: \(seen.stdout)")
        #expect(rows.contains { $0.contains("Phone joined") && $0.hasSuffix("(-40 dBm)") }, "and the phone over the air: \(seen.stdout)")

        // Carol stops hearing it: the forwarded packet is cleared after her stale time.
        try await sub.lines.next { $0 == "\(topic) [] 0" }
        #expect(try await sandbox.run("leave", "--adapter", "hci0").status == 0)
        #expect(try await dave.run("leave", "--adapter", "none").status == 0)
        _ = try await offPool { watch.finish() }
    }

    @Test func whatAKilledForwarderForwardedExpiresOnTheBroker() async throws {
        let broker = try await TestBroker.start(tls: false)
        let sub = try await broker.subscribe()
        defer { sub.stop() }
        let sandbox = try await SessionSandbox.start()
        // Stale after 3 s: forwarded packets expire on the broker after 9 s.
        let joined = try await carolJoinsWithRelay(sandbox, broker, stale: 3)
        let topic = try await phoneForwarded(sandbox, address: "00:AD:00:00:00:02", sub)
        let published = ContinuousClock.now
        // Killed without a word (the session just after, before its first
        // restart delay ends): the last will clears the relay's own topic,
        // not the forwarded one.
        let (session, relay) = try sessionAndRelay(joined)
        kill(relay, SIGKILL)
        kill(session, SIGKILL)
        try await sub.lines.next { $0.hasSuffix(" [] 0") && !$0.contains("/fwd/") }
        #expect(try await broker.holdsRetained(topic), "a new subscriber still gets the forwarded packet before it expires")
        // The expiry is the rule under test: nothing announces it, so the
        // test lets the interval pass, then asks as a new subscriber.
        try await Task.sleep(until: published + .seconds(9) + .milliseconds(1100))
        #expect(try await !broker.holdsRetained(topic), "gone once expired")
    }

    /// Ann joins `broker`'s room without Bluetooth; returns her, what `join`
    /// said, and her topic, from her first packet on `sub`.
    private func annJoined(_ broker: TestBroker, _ sub: Subscriber) async throws
        -> (Teammate, EstimatorProcess.Result, topic: String) {
        let ann = try Teammate("Ann")
        let joined = try await ann.join(broker)
        #expect(joined.status == 0, "\(joined.stderr)")
        let first = try await sub.lines.next { $0.contains("[\(hex("0103FCAnn"))]") }
        return (ann, joined, String(first.split(separator: " ")[0]))
    }

    /// Carol joins channel 3 on the fake bluetoothd's hci0, stale after
    /// `stale` seconds, with the relay to `broker` and its password in a
    /// file of mode 0600.
    @discardableResult
    private func carolJoinsWithRelay(_ sandbox: SessionSandbox, _ broker: TestBroker, stale: Int) async throws
        -> EstimatorProcess.Result {
        let file = "\(sandbox.root)/password"
        try TestBroker.password.write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let joined = try await sandbox.run("join", "--adapter", "hci0", "--name", "Carol", "--channel", "3",
                                           "--stale", String(stale), "--relay", broker.url,
                                           "--relay-user", TestBroker.user, "--relay-password-file", file)
        #expect(joined.status == 0, "\(joined.stderr)")
        return joined
    }

    /// An app user's phone at `address` heard on hci0; returns the topic
    /// Carol's relay forwards it under, from `sub`.
    /// The phone heard advertising until the relay forwards it.
    private func phoneForwarded(_ sandbox: SessionSandbox, address: String, _ sub: Subscriber) async throws -> String {
        let advertising = try sandbox.system.fake.advertise(address, on: "hci0", name: "010305Phone", rssi: -40,
                                                            uuids: ["FB3367FD-09F8-4E08-9F6B-07E309FD2576"])
        defer { advertising.cancel() }
        let forwarded = try await sub.lines.next { $0.contains("/fwd/") && $0.contains("[\(hex("010305Phone"))]") }
        return String(forwarded.split(separator: " ")[0])
    }
}

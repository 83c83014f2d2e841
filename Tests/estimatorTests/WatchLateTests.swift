import DBusTestSupport
import Foundation
import Testing

/// A `watch` started late, through the built binary on a session of the
/// fake bluetoothd: its first output is the room as the session decided
/// it, not what the watch itself heard since it started.
@Suite(.timeLimit(.minutes(2))) struct WatchLateTests {
    static let uuid = WatchStandaloneTests.uuid

    /// Me joined in channel 1 on hci0, and Alice (who voted 5) and Bob (who
    /// has not voted) in round 1 on the air; returns once an early watch
    /// saw both, and that watch's lines.
    private func meetingOfThree(_ sandbox: SessionSandbox) async throws -> (RunningEstimator, LineStream) {
        let fake = try sandbox.system.fake
        // Alice and Bob are heard once: a loaded machine can take longer
        // than the default stale time, which is not what this is about.
        try await sandbox.run("join", "--channel", "1", "--name", "Me", "--adapter", "hci0", "--stale", "600")
        let early = try sandbox.launch("watch", "--json")
        let lines = LineStream(early.out)
        let alice = try fake.advertise("AA:00:00:00:00:01", on: "hci0", name: "210105Alice", rssi: -50, uuids: [Self.uuid])
        let bob = try fake.advertise("AA:00:00:00:00:02", on: "hci0", name: "2101FCBob", rssi: -55, uuids: [Self.uuid])
        defer { alice.cancel(); bob.cancel() }
        // Each is found a second after they are first heard, whichever first.
        var joined: [String] = []
        for _ in 0..<2 { joined.append(try await lines.next { $0.contains(#""event":"joined""#) }) }
        #expect(joined.contains { $0.contains(#""name":"Alice""#) } && joined.contains { $0.contains(#""name":"Bob""#) })
        return (early, lines)
    }

    @Test func aWatchStartedAfterTheRevealPrintsEveryCard() async throws {
        let sandbox = try await SessionSandbox.start()
        let (early, lines) = try await meetingOfThree(sandbox)
        try await sandbox.run("pick", "8")
        #expect(try await sandbox.run("reveal").status == 0)
        try await lines.next { $0.contains(#""event":"revealed""#) }

        let once = try await sandbox.run("watch", "--once")
        #expect(once.status == 0, "\(once.stderr)")
        let revealed = once.stdout.split(separator: "\n").filter { $0.contains(" revealed: ") }
        #expect(revealed.count == 1, "\(once.stdout)")
        #expect(revealed.first?.contains("channel 1 round 1 revealed: Me 8, Alice 5 · ") == true, "\(once.stdout)")

        let json = try await sandbox.run("watch", "--json", "--once")
        let cards = json.stdout.split(separator: "\n").filter { $0.contains(#""event":"revealed""#) }
        #expect(cards.count == 1 && cards.first?.contains(
            #""cards":[{"name":"Me","card":"8","cardRaw":"08"},{"name":"Alice","card":"5","cardRaw":"05"}],"without":["Bob"]"#) == true,
            "\(json.stdout)")

        try await sandbox.run("leave")
        _ = try await offPool { early.finish() }
    }

    @Test func aWatchStartedMidRoundHasTheVotedCount() async throws {
        let sandbox = try await SessionSandbox.start()
        let (early, _) = try await meetingOfThree(sandbox)
        try await sandbox.run("pick", "3")

        let json = try await sandbox.run("watch", "--json", "--once")
        #expect(json.status == 0, "\(json.stderr)")
        let joined = json.stdout.split(separator: "\n").filter { $0.contains(#""event":"joined""#) }
        #expect(joined.count == 2, "\(json.stdout)")
        #expect(joined.contains { $0.contains(#""name":"Alice","card":"hidden""#) }, "Alice voted: \(json.stdout)")
        #expect(joined.contains { $0.contains(#""name":"Bob","card":"waiting""#) }, "Bob did not: \(json.stdout)")
        #expect(!json.stdout.contains(#""event":"revealed""#))

        // --open: the session tells this watch every card it knows at once.
        let open = try await sandbox.run("watch", "--json", "--once", "--open")
        #expect(open.stdout.contains(#""name":"Alice","card":"5","cardRaw":"05""#), "\(open.stdout)")

        let table = try await WatchTerminalTests.onceOnATerminal(sandbox)
        #expect(table.contains("3 people · 2 voted"), "\(table)")
        #expect(table.contains("2 of 3 voted · waiting for Bob"), "\(table)")

        try await sandbox.run("leave")
        _ = try await offPool { early.finish() }
    }
}

import DBusTestSupport
import EstimatorKit
import Glibc
import SessionDaemon
import Testing

/// The session process in this process: real lock, real control socket,
/// the in-memory radio.
@Suite(.timeLimit(.minutes(2))) struct SessionProcessTests {
    @Test func watchStreamsWhatIsHeardUntilTheSessionLeaves() async throws {
        let directory = RuntimeDirectory(path: try TemporaryDirectory.make() + "/estimator")
        let radio = MemoryRadio()
        var process = SessionProcess(adapter: "hci0", channel: Channel(rawValue: 1),
                                     name: try PersonName.parse("Ann").name, staleAfter: .seconds(6),
                                     directory: directory, logging: false)
        process.makeRadio = { _, _ in radio }
        let readiness = Lines()
        let running = Task { await process.run(ready: { _ = readiness.append($0.serialized) }) }
        await readiness.wait(count: 1)
        let ready = try ControlReply(parsing: Array(readiness.all[0].utf8))
        #expect(ready.exitCode == 0)
        #expect(ready.message.hasPrefix("joined channel 1 as Ann on hci0 (session pid "))

        // A second session on the same adapter is refused by the lock (75: `join` joins the first).
        let second = await SessionProcess(adapter: "hci0", channel: .default, name: try PersonName.parse("Bob").name,
                                          staleAfter: .seconds(6), directory: directory, logging: false)
            .run(ready: { _ in })
        #expect(second == 75)

        let watcher = try #require(ControlClient(path: directory.socketPath(adapter: "hci0"), timeout: 30))
        try watcher.send(.watch)
        #expect(try ControlReply(parsing: try #require(try await offPool { try watcher.readLine() })).message == "watching")
        #expect(try ControlWatchLine(parsing: try #require(try await offPool { try watcher.readLine() }))
            == .me(channel: 1, name: "Ann", adapter: "hci0", onAir: Array("0101FCAnn".utf8)))
        #expect(try ControlWatchLine(parsing: try #require(try await offPool { try watcher.readLine() })) == .radio("advertising and scanning"))
        let next = { try ControlWatchLine(parsing: try #require(try await offPool { try watcher.readLine() })) }
        guard case let .table(alone) = try await next() else {
            Issue.record("a watch starts from my channel's table")
            return
        }
        #expect(alone.tally.entries.map(\.name) == ["Ann"])

        // Bob advertises, as a laptop does: the signal floor finds nobody
        // from one reading.
        let advertising = Task {
            while !Task.isCancelled {
                radio.hear(localName: Array("010105Bob".utf8), rssi: -42)
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { advertising.cancel() }
        // Bob's receptions, his arrival and the table with him, in whichever
        // order the reception's batch and a tick send them.
        let bob = WatchSighting(id: PeerID(channel: Channel(rawValue: 1), name: "Bob"), rssi: -42, heard: .air)
        var (seen, joined, withBob) = (false, false, false)
        while !(seen && joined && withBob) {
            switch try await next() {
            case .seen(bob): seen = true
            case let .change(json, _): joined = joined || json["event"] == "joined" && json["name"] == "Bob"
            case let .table(table): withBob = table.tally.entries.map(\.name) == ["Ann", "Bob"]
            case let line: Issue.record("\(line)")
            }
        }
        advertising.cancel()

        let picker = try #require(ControlClient(path: directory.socketPath(adapter: "hci0"), timeout: 30))
        #expect(try await offPool { try picker.call(.pick(.eight)) }.message == "picked 8")
        var picked = try await next()
        // The end of the first listen on a slow machine, and Bob's last receptions.
        while picked.isTableOrSighting { picked = try await next() }
        #expect(picked == .me(channel: 1, name: "Ann", adapter: "hci0", onAir: Array("010108Ann".utf8)))
        var voted: WatchTable?
        while voted == nil {
            // Everyone voted: a `revealed` change may come first.
            if case let .table(table) = try await next() { voted = table }
        }
        #expect(voted?.tally.voted == 2, "my pick changes the table")
        #expect(try await offPool { try picker.call(.status) }.status?.peers == 1)

        #expect(try await offPool { try picker.call(.leave) }.message == "left channel 1")
        // Lines of the reveal my pick brought may come first.
        while try await next() != .ended("left channel 1") {}
        #expect(try await offPool { try watcher.readLine() } == nil, "the stream closes")
        #expect(await running.value == 0)
        #expect(access(directory.socketPath(adapter: "hci0"), F_OK) != 0)
        #expect(radio.advertised.map { String(decoding: $0, as: UTF8.self) } == ["0101FCAnn", "010108Ann", "0101FFAnn"])
    }
}

extension ControlWatchLine {
    /// A table or a sighting: lines a reception or a tick may send at any time.
    var isTableOrSighting: Bool {
        switch self {
        case .table, .seen: true
        default: false
        }
    }
}

// The session runs on the cooperative pool in this process: a blocking read
// must wait elsewhere (`offPool`), the client being used by one thread at a time.
extension ControlClient: @unchecked Sendable {}

import DBus
import DBusTestSupport
import Testing

/// Timeouts, cancellation, peers and the daemon going away while calls are pending.
@Suite(.timeLimit(.minutes(2))) struct FaultTests {
    /// A server whose `Hang` method announces that it started and then waits for `release`.
    struct HangingServer {
        let connection: Connection
        let object: ExportedObject
        let started: AsyncStream<Void>
        let release: AsyncStream<Void>.Continuation

        static func start(on bus: TestBus) async throws -> HangingServer {
            let connection = try await bus.connect()
            let (started, startedContinuation) = AsyncStream<Void>.makeStream()
            let (gate, release) = AsyncStream<Void>.makeStream()
            let object = try await connection.export("/hang", interfaces: [Interface(
                "org.example.Hang",
                methods: [Method("Hang") { _ in
                    startedContinuation.yield()
                    for await _ in gate {}
                    return []
                }])])
            return HangingServer(connection: connection, object: object, started: started, release: release)
        }

        func call(from client: Connection, timeout: Duration = Connection.defaultTimeout) async throws {
            _ = try await client.call(
                destination: connection.uniqueName!, path: "/hang", interface: "org.example.Hang", member: "Hang",
                timeout: timeout)
        }

        /// Starts a call from `client` in a task of its own; returns the task
        /// once the server hangs in it.
        func hangingCall(from client: Connection) async -> Task<Void, any Error> {
            let call = Task { try await self.call(from: client) }
            var iterator = started.makeAsyncIterator()
            _ = await iterator.next()
            return call
        }
    }

    @Test func aCallTimesOutWithNoReply() async throws {
        let bus = try await TestBus.start()
        let server = try await HangingServer.start(on: bus)
        defer { server.release.finish() }
        let client = try await bus.connect()
        let error = await #expect(throws: DBusError.self) { try await server.call(from: client, timeout: .milliseconds(100)) }
        #expect(error?.name == .noReply)
        // The connection is still good afterwards.
        #expect(try await client.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetId").decode(String.self).count == 32)
    }

    @Test func cancellingTheCallingTaskEndsTheCall() async throws {
        let bus = try await TestBus.start()
        let server = try await HangingServer.start(on: bus)
        defer { server.release.finish() }
        let client = try await bus.connect()
        let call = await server.hangingCall(from: client)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    @Test func aPeerLeavingMidCallFailsThePendingCall() async throws {
        let bus = try await TestBus.start()
        let server = try await HangingServer.start(on: bus)
        defer { server.release.finish() }
        let client = try await bus.connect()
        let call = await server.hangingCall(from: client)
        server.connection.close()
        let error = await #expect(throws: DBusError.self) { try await call.value }
        #expect(error?.name == .noReply)
    }

    @Test func theDaemonDyingFailsCallsStreamsAndLaterCalls() async throws {
        let bus = try await TestBus.start()
        let server = try await HangingServer.start(on: bus)
        defer { server.release.finish() }
        let client = try await bus.connect()
        let signals = try await client.signals(matching: MatchRule(interface: "org.example.Hang"))
        let owners = try await client.nameOwner(of: "org.example.Nobody")
        let call = await server.hangingCall(from: client)
        bus.kill()
        await #expect(throws: DBusError.self) { try await call.value }
        await #expect(throws: DBusError.self) { for try await _ in signals {} }
        await #expect(throws: DBusError.self) { for try await _ in owners {} }
        let later = await #expect(throws: DBusError.self) {
            try await client.call(destination: "org.freedesktop.DBus", path: "/", interface: "org.example.X", member: "Y")
        }
        #expect(later?.name == .disconnected)
        #expect(throws: DBusError.self) { try client.emit(path: "/", interface: "org.example.X", member: "Y") }
    }

    @Test func manyConcurrentCallsAreAllAnswered() async throws {
        let bus = try await TestBus.start(limits: ["max_replies_per_connection": 1000])
        let server = try await bus.connect()
        let object = try await server.export("/echo", interfaces: [Interface(
            "org.example.Echo", methods: [Method("Echo", input: "u", output: "u") { [.uint32(try $0.decode(UInt32.self))] }])])
        let client = try await bus.connect()
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in UInt32(0)..<500 {
                group.addTask {
                    let reply = try await client.call(
                        destination: server.uniqueName!, path: object.path, interface: "org.example.Echo", member: "Echo", index)
                    return try reply.decode(UInt32.self) == index
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 500 && results.allSatisfy { $0 })
    }
}

/// Following who owns a bus name.
@Suite(.timeLimit(.minutes(2))) struct NameOwnerTests {
    @Test func reportsOwnerGoingAwayAndComingBack() async throws {
        let bus = try await TestBus.start()
        let watcher = try await bus.connect()
        var owners = try await watcher.nameOwner(of: "org.example.Service").makeAsyncIterator()
        #expect(try await owners.next() == .some(nil))

        let first = try await bus.connect()
        try await Self.requestName("org.example.Service", on: first)
        #expect(try await owners.next() == first.uniqueName)
        first.close()
        #expect(try await owners.next() == .some(nil))

        let second = try await bus.connect()
        try await Self.requestName("org.example.Service", on: second)
        #expect(try await owners.next() == second.uniqueName)
    }

    @Test func startsWithTheCurrentOwnerAndStopsCleanly() async throws {
        let bus = try await TestBus.start()
        let service = try await bus.connect()
        try await Self.requestName("org.example.Service", on: service)
        let watcher = try await bus.connect()
        let stream = try await watcher.nameOwner(of: "org.example.Service")
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == service.uniqueName)
        stream.cancel()
        #expect(try await iterator.next() == nil)
        await #expect(throws: DBusError.self) { try await watcher.nameOwner(of: "not a name") }
    }

    static func requestName(_ name: String, on connection: Connection) async throws {
        let reply = try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName", name, UInt32(4))
        #expect(try reply.decode(UInt32.self) == 1)
    }
}

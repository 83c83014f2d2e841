import DBus
import DBusTestSupport
import Synchronization
import Testing

/// `Connection.paceReading` against a real private dbus-daemon: nothing is
/// lost, and a call's reply is not held.
@Suite(.timeLimit(.minutes(1))) struct PacedReadingTests {
    static let interface = "org.example.Paced"

    @Test func aCallIsAnsweredAtOnceWhileReadingIsHeld() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let sender = try await bus.connect()
        let seen = SignalHandlerTests.Seen()
        let handler = try await receiver.handleSignals(matchingAny: [MatchRule(interface: Self.interface, member: "Tick")]) {
            seen.take($0)
        }
        // A reply that waited for the hold would come 90 s late, past the
        // suite's time limit.
        receiver.paceReading(every: .seconds(90))
        // Jobs run in order, so this reply is the first read paced; the
        // signal's read after it makes two in a row: reading is held now.
        _ = try await Self.busID(receiver)
        try sender.emit(path: "/x", interface: Self.interface, member: "Tick", "n", "1")
        await seen.wait(count: 1)
        try sender.emit(path: "/x", interface: Self.interface, member: "Tick", "n", "2")
        // The bus routes a connection's messages in order: once it answers the
        // sender, signal 2 waits in the receiver's socket, ahead of any reply.
        _ = try await Self.busID(sender)
        let started = ContinuousClock.now
        #expect(!(try await Self.busID(receiver)).isEmpty)
        #expect(ContinuousClock.now - started < .seconds(10))
        // The reply's read took the signal that came before it.
        await seen.wait(count: 2)
        #expect(seen.notes.withLock { $0 } == ["1", "2"])
        handler.cancel()
    }

    static func busID(_ connection: Connection) async throws -> String {
        try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "GetId"
        ).decode(String.self)
    }

    @Test func aBurstArrivesWholeAndInOrderAcrossHolds() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let sender = try await bus.connect()
        receiver.paceReading(every: .milliseconds(20))
        let seen = SignalHandlerTests.Seen()
        let handler = try await receiver.handleSignals(matchingAny: [MatchRule(interface: Self.interface, member: "Tick")]) {
            seen.take($0)
        }
        for round in 0..<5 {
            for index in 1...100 { try sender.emit(path: "/x", interface: Self.interface, member: "Tick", "n", "\(round * 100 + index)") }
            await seen.wait(count: (round + 1) * 100)
        }
        #expect(seen.notes.withLock { $0 } == (1...500).map { "\($0)" })
        handler.cancel()
    }
}

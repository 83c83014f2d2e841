import DBus
import DBusTestSupport
import Glibc
import Synchronization
import Testing

/// Signal handlers run on the connection's reading thread (`handleSignals`).
@Suite(.timeLimit(.minutes(2))) struct SignalHandlerTests {
    static let interface = "org.example.Handled"

    /// What a handler saw, and a stream to await it by.
    final class Seen: Sendable {
        let notes = Mutex<[String]>([])
        let threads = Mutex<Set<UInt>>([])
        let arrivals: AsyncStream<Void>
        private let arrived: AsyncStream<Void>.Continuation

        init() { (arrivals, arrived) = AsyncStream.makeStream() }

        func take(_ message: Message) {
            guard let (_, note) = try? message.decode(String.self, String.self) else { return }
            notes.withLock { $0.append(note) }
            threads.withLock { _ = $0.insert(UInt(pthread_self())) }
            arrived.yield()
        }

        func wait(count: Int) async {
            var iterator = arrivals.makeAsyncIterator()
            while notes.withLock({ $0.count }) < count { _ = await iterator.next() }
        }
    }

    @Test func handlesEachMatchingSignalInBusOrderOnOneThread() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let sender = try await bus.connect()
        let seen = Seen()
        let before = try await SignalTests.matchRuleCount(receiver)
        let handler = try await receiver.handleSignals(matchingAny: [
            MatchRule(interface: Self.interface, member: "Added"),
            MatchRule(interface: Self.interface, member: "Changed", arguments: [0: "wanted"]),
        ]) { seen.take($0) }
        #expect(try await SignalTests.matchRuleCount(receiver) == before + 2)
        try sender.emit(path: "/x", interface: Self.interface, member: "Changed", "wanted", "1")
        try sender.emit(path: "/x", interface: Self.interface, member: "Changed", "unwanted", "no")
        try sender.emit(path: "/x", interface: Self.interface, member: "Other", "wanted", "no")
        for index in 2...200 { try sender.emit(path: "/x", interface: Self.interface, member: "Added", "any", "\(index)") }
        await seen.wait(count: 200)
        #expect(seen.notes.withLock { $0 } == (1...200).map { "\($0)" })
        #expect(seen.threads.withLock { $0.count } == 1, "the connection's one reading thread")
        #expect(!seen.threads.withLock { $0 }.contains(UInt(pthread_self())))
        handler.cancel()
        #expect(try await SignalTests.matchRuleCount(receiver) == before, "both rules removed")
    }

    @Test func cancellingStopsTheHandler() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let sender = try await bus.connect()
        let seen = Seen()
        let rule = MatchRule(interface: Self.interface, member: "Tick")
        let handler = try await receiver.handleSignals(matchingAny: [rule]) { seen.take($0) }
        // A stream on the same rule tells when a later signal has been routed.
        let witness = try await receiver.signals(matching: rule)
        try sender.emit(path: "/x", interface: Self.interface, member: "Tick", "n", "before")
        await seen.wait(count: 1)
        handler.cancel()
        try sender.emit(path: "/x", interface: Self.interface, member: "Tick", "n", "after")
        var routed = 0
        for try await _ in witness {
            routed += 1
            if routed == 2 { break }
        }
        #expect(seen.notes.withLock { $0 } == ["before"])
    }

    @Test func closingTheConnectionReportsTheEnd() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let (ends, end) = AsyncStream<DBusError>.makeStream()
        let handler = try await receiver.handleSignals(matchingAny: [MatchRule(interface: Self.interface)], ended: {
            end.yield($0)
        }) { _ in }
        receiver.close()
        var iterator = ends.makeAsyncIterator()
        let error = await iterator.next()
        #expect(error?.name == .disconnected)
        withExtendedLifetime(handler) {}
    }
}

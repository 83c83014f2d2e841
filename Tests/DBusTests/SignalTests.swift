import DBus
import DBusTestSupport
import Testing

/// Signal subscriptions between two connections on a private bus.
@Suite(.timeLimit(.minutes(2))) struct SignalTests {
    static let interface = "org.example.Signals"

    @Test func receivesTypedSignalsInOrder() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let sender = try await bus.connect()
        let stream = try await receiver.signals(matching: MatchRule(interface: Self.interface, member: "Tick")) {
            try $0.decode(String.self, Int32.self)
        }
        for index in 0..<100 { try sender.emit(path: "/ticker", interface: Self.interface, member: "Tick", "n", Int32(index)) }
        #expect(try await Self.first(100, of: stream).map(\.1) == Array(0..<100))
    }

    @Test func filtersByPathNamespaceMemberArgumentAndSender() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let sender = try await bus.connect()
        let other = try await bus.connect()
        let stream = try await receiver.signals(matching: MatchRule(
            sender: sender.uniqueName, pathNamespace: "/org/x", interface: Self.interface, member: "Changed",
            arguments: [0: "wanted"]))
        // Each of these differs from the rule in one respect and must not arrive.
        try other.emit(path: "/org/x/1", interface: Self.interface, member: "Changed", "wanted", "wrong sender")
        try sender.emit(path: "/org/xy", interface: Self.interface, member: "Changed", "wanted", "outside namespace")
        try sender.emit(path: "/org/x/1", interface: Self.interface, member: "Other", "wanted", "wrong member")
        try sender.emit(path: "/org/x/1", interface: Self.interface, member: "Changed", "unwanted", "wrong argument")
        try sender.emit(path: "/org/x/1/2", interface: Self.interface, member: "Changed", "wanted", "ok")
        for try await signal in stream {
            let (_, note) = try signal.decode(String.self, String.self)
            #expect(note == "ok")
            #expect(signal.path == "/org/x/1/2")
            #expect(signal.sender == sender.uniqueName)
            break
        }
    }

    @Test func severalRulesFeedOneStreamInBusOrder() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let sender = try await bus.connect()
        let before = try await Self.matchRuleCount(receiver)
        let stream = try await receiver.signals(matchingAny: [
            MatchRule(interface: Self.interface, member: "Added"),
            MatchRule(interface: Self.interface, member: "Changed", arguments: [0: "wanted"]),
        ]) { try $0.decode(String.self, String.self).1 }
        #expect(try await Self.matchRuleCount(receiver) == before + 2)
        try sender.emit(path: "/x", interface: Self.interface, member: "Changed", "wanted", "1")
        try sender.emit(path: "/x", interface: Self.interface, member: "Changed", "unwanted", "no")
        try sender.emit(path: "/x", interface: Self.interface, member: "Other", "wanted", "no")
        try sender.emit(path: "/x", interface: Self.interface, member: "Added", "any", "2")
        try sender.emit(path: "/x", interface: Self.interface, member: "Changed", "wanted", "3")
        #expect(try await Self.first(3, of: stream) == ["1", "2", "3"])
        stream.cancel()
        #expect(try await Self.matchRuleCount(receiver) == before, "both rules removed")
    }

    /// The bus sends the connection every signal any of its rules wants; each
    /// subscription then checks its own rules locally, arguments included.
    @Test func subscriptionsOnOneConnectionGetOnlyTheirOwnArguments() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let sender = try await bus.connect()
        let first = try await receiver.signals(matchingAny: [
            MatchRule(interface: Self.interface, member: "Changed", arguments: [0: "a"]),
        ]) { try $0.decode(String.self, String.self).1 }
        let second = try await receiver.signals(matchingAny: [
            MatchRule(interface: Self.interface, member: "Changed", arguments: [1: "b2"]),
        ]) { try $0.decode(String.self, String.self).1 }
        try sender.emit(path: "/x", interface: Self.interface, member: "Changed", "a", "a1")
        try sender.emit(path: "/x", interface: Self.interface, member: "Changed", "ab", "b1")  // prefix of neither
        try sender.emit(path: "/x", interface: Self.interface, member: "Changed", "b", "b2")
        try sender.emit(path: "/x", interface: Self.interface, member: "Changed", "a", "b2")
        #expect(try await Self.first(2, of: first) == ["a1", "b2"])
        #expect(try await Self.first(2, of: second) == ["b2", "b2"])
    }

    /// `arg0path`, on the bus and locally: a value ending in "/" takes what is
    /// below it, one without takes that path alone; object paths and strings alike.
    @Test func pathArgumentsTakeASubtreeOrOnePath() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let sender = try await bus.connect()
        let below = try await receiver.signals(matchingAny: [
            MatchRule(interface: Self.interface, member: "Added", pathArguments: [0: "/org/bluez/hci0/"]),
        ]) { signal -> String in
            if let (_, note) = try? signal.decode(ObjectPath.self, String.self) { return note }
            return try signal.decode(String.self, String.self).1
        }
        let itself = try await receiver.signals(matchingAny: [
            MatchRule(interface: Self.interface, member: "Added", pathArguments: [0: "/org/bluez/hci0"]),
        ]) { try $0.decode(ObjectPath.self, String.self).1 }
        let added: [(ObjectPath, String)] = [
            ("/org/bluez/hci1/dev_1", "another adapter's device"), ("/org/bluez/hci0/dev_1", "below"),
            ("/org/bluez/hci01", "a longer name"), ("/org/bluez/hci0", "itself"), ("/org/bluez", "above"),
        ]
        for (path, note) in added { try sender.emit(path: "/", interface: Self.interface, member: "Added", path, note) }
        try sender.emit(path: "/", interface: Self.interface, member: "Added", "/org/bluez/hci0/dev_2", "below, a string")
        // Last, one for each subscription: a wrong one before it shows in the notes.
        try sender.emit(path: "/", interface: Self.interface, member: "Added", ObjectPath("/org/bluez/hci0/end") as ObjectPath, "end")
        try sender.emit(path: "/", interface: Self.interface, member: "Added", ObjectPath("/org/bluez/hci0") as ObjectPath, "end")
        #expect(try await Self.first(3, of: below) == ["below", "below, a string", "end"])
        #expect(try await Self.first(2, of: itself) == ["itself", "end"])
        #expect(MatchRule(interface: Self.interface, pathArguments: [0: "/a/"]).description
            == "type='signal',interface='org.example.Signals',arg0path='/a/'")
    }

    @Test func wellKnownSenderFollowsTheOwner() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let service = try await bus.connect()
        let impostor = try await bus.connect()
        let reply = try await service.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName", "org.example.Service", UInt32(0))
        #expect(try reply.decode(UInt32.self) == 1)
        // Two subscriptions: one without a sender lets the impostor's signal reach this connection.
        let all = try await receiver.signals(matching: MatchRule(interface: Self.interface))
        let fromService = try await receiver.signals(matching: MatchRule(sender: "org.example.Service", interface: Self.interface))
        // Two senders race at the bus: wait until the spoof has arrived before the real one.
        var allIterator = all.makeAsyncIterator()
        try impostor.emit(path: "/", interface: Self.interface, member: "Spoof", "impostor")
        #expect(try await allIterator.next()?.member == "Spoof")
        try service.emit(path: "/", interface: Self.interface, member: "Real", "service")
        #expect(try await allIterator.next()?.member == "Real")
        for try await signal in fromService {
            #expect(signal.member == "Real")
            break
        }
    }

    @Test func signatureMismatchesAreSkippedByTypedStreams() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let sender = try await bus.connect()
        let stream = try await receiver.signals(matching: MatchRule(interface: Self.interface)) { try $0.decode(Int32.self) }
        try sender.emit(path: "/", interface: Self.interface, member: "Bad", "not a number")
        try sender.emit(path: "/", interface: Self.interface, member: "Bad", Int32(1), Int32(2))
        try sender.emit(path: "/", interface: Self.interface, member: "Good", Int32(7))
        for try await value in stream {
            #expect(value == 7)
            break
        }
    }

    /// Three times the backlog past which the connection stops reading (16,384): the
    /// reading pauses while nobody consumes and resumes as the consumer catches up.
    @Test(.timeLimit(.minutes(1))) func aConsumerFarBehindStillGetsEverySignalInOrder() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let sender = try await bus.connect()
        let stream = try await receiver.signals(matching: MatchRule(interface: Self.interface, member: "Burst")) {
            try $0.decode(Int32.self)
        }
        let count: Int32 = 50_000
        for index in 0..<count { try sender.emit(path: "/burst", interface: Self.interface, member: "Burst", index) }
        // The bus answers in order: once this reply is back, every signal has been routed.
        _ = try await sender.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "GetId")
        var expected: Int32 = 0
        for try await index in stream {
            guard index == expected else { break }
            expected += 1
            if expected == count { break }
        }
        #expect(expected == count)
    }

    @Test func endingTheStreamRemovesTheMatchRule() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let rule = MatchRule(interface: Self.interface, member: "Gone")
        let before = try await Self.matchRuleCount(receiver)
        let stream = try await receiver.signals(matching: rule)
        #expect(try await Self.matchRuleCount(receiver) == before + 1)
        stream.cancel()
        // RemoveMatch is sent before this call; the bus answers in order.
        #expect(try await Self.matchRuleCount(receiver) == before)
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    @Test func cancellingTheConsumerRemovesTheMatchRule() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let before = try await Self.matchRuleCount(receiver)
        let stream = try await receiver.signals(matching: MatchRule(interface: Self.interface, member: "Never"))
        let consumer = Task { for try await _ in stream {} }
        consumer.cancel()
        _ = await consumer.result
        #expect(try await Self.matchRuleCount(receiver) == before)
    }

    @Test func closingTheConnectionEndsStreamsWithAnError() async throws {
        let bus = try await TestBus.start()
        let receiver = try await bus.connect()
        let stream = try await receiver.signals(matching: MatchRule(interface: Self.interface))
        receiver.close()
        await #expect(throws: DBusError.self) { for try await _ in stream {} }
        await #expect(throws: DBusError.self) { try await receiver.signals(matching: MatchRule(interface: Self.interface)) }
    }

    /// The first `count` elements of `stream`, in order.
    static func first<Stream: AsyncSequence>(_ count: Int, of stream: Stream) async throws -> [Stream.Element] {
        var elements: [Stream.Element] = []
        for try await element in stream {
            elements.append(element)
            if elements.count == count { break }
        }
        return elements
    }

    /// The bus's own count of our match rules (dbus-daemon's statistics interface).
    static func matchRuleCount(_ connection: Connection) async throws -> UInt32 {
        let reply = try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus.Debug.Stats", member: "GetConnectionStats", connection.uniqueName!)
        let stats = try reply.decode([String: Value].self)
        return try #require(stats["MatchRules"]?.decode(as: UInt32.self))
    }
}

import DBus
import DBusTestSupport
import Synchronization
import Testing
import Threads

/// Exported objects served by one connection and called by another over a private bus.
@Suite(.timeLimit(.minutes(2))) struct ExportTests {
    static let interface = "org.example.Thing1"

    /// What peers set `Level` to, in order.
    final class SetLog: Sendable {
        let values = Mutex<[Value]>([])
    }

    static func thing(setLog: SetLog? = nil) -> [Interface] {
        [Interface(
            interface,
            methods: [
                Method("Echo", input: "s", output: "s") { call in [.string(try call.decode(String.self))] },
                Method("Refuse") { _ in throw DBusError(name: "org.example.Error.Nope", message: "not today") },
                Method("Lie", output: "s") { _ in [.int32(1)] },
            ],
            properties: [
                Property("Name", .string("first")),
                Property("Level", .int16(3)) { value in
                    guard let level = value.integer, level >= 0 else { throw DBusError.invalidArguments("negative") }
                    setLog?.values.withLock { $0.append(value) }
                },
            ],
            signals: [SignalDescription("Poked", arguments: "u")])]
    }

    /// An object exported from a task on a loop has its methods run on
    /// that loop, not on Swift's pool.
    @Test func methodsOfAnObjectExportedFromALoopRunOnIt() async throws {
        let bus = try await TestBus.start()
        let server = try await bus.connect()
        let client = try await bus.connect()
        let loop = SessionLoop.start()
        let interfaces = [Interface(Self.interface, methods: [
            Method("OnLoop", output: "b") { _ in [.boolean(SessionLoop.current === loop)] },
        ])]
        let object = try await withTaskExecutorPreference(loop) {
            try await server.export("/org/example/thing", interfaces: interfaces)
        }
        let reply = try await client.call(destination: server.uniqueName!, path: object.path, interface: Self.interface,
                                          member: "OnLoop")
        #expect(try reply.decode(Bool.self))
    }

    @Test func methodsRepliesAndErrors() async throws {
        let bus = try await TestBus.start()
        let server = try await bus.connect()
        let client = try await bus.connect()
        let object = try await server.export("/org/example/thing", interfaces: Self.thing())
        let name = server.uniqueName!
        let reply = try await client.call(destination: name, path: object.path, interface: Self.interface, member: "Echo", "héllo")
        #expect(try reply.decode(String.self) == "héllo")

        let refused = await #expect(throws: DBusError.self) {
            try await client.call(destination: name, path: object.path, interface: Self.interface, member: "Refuse")
        }
        #expect(refused == DBusError(name: "org.example.Error.Nope", message: "not today"))
        let wrongArguments = await #expect(throws: DBusError.self) {
            try await client.call(destination: name, path: object.path, interface: Self.interface, member: "Echo", Int32(1))
        }
        #expect(wrongArguments?.name == .invalidArgs)
        let lying = await #expect(throws: DBusError.self) {
            try await client.call(destination: name, path: object.path, interface: Self.interface, member: "Lie")
        }
        #expect(lying?.name == .failed)
        let unknown = await #expect(throws: DBusError.self) {
            try await client.call(destination: name, path: object.path, interface: Self.interface, member: "Nothing")
        }
        #expect(unknown?.name == .unknownMethod)
        let noInterface = await #expect(throws: DBusError.self) {
            try await client.call(destination: name, path: object.path, interface: "org.example.Other", member: "Echo", "x")
        }
        #expect(noInterface?.name == .unknownInterface)
        await #expect(throws: DBusError.self) { try await server.export(object.path, interfaces: []) }

        object.unexport()
        let gone = await #expect(throws: DBusError.self) {
            try await client.call(destination: name, path: object.path, interface: Self.interface, member: "Echo", "x")
        }
        #expect(gone?.name == .unknownMethod)
    }

    @Test func propertiesGetGetAllSetAndPropertiesChanged() async throws {
        let bus = try await TestBus.start()
        let server = try await bus.connect()
        let client = try await bus.connect()
        let setLog = SetLog()
        let object = try await server.export("/org/example/thing", interfaces: Self.thing(setLog: setLog))
        let properties = Properties(connection: client, destination: server.uniqueName!, path: object.path)
        let changes = try await client.signals(matching: MatchRule(
            sender: server.uniqueName, path: object.path, interface: "org.freedesktop.DBus.Properties",
            member: "PropertiesChanged")) { try $0.decode(String.self, [String: Value].self, [String].self) }
        var changeIterator = changes.makeAsyncIterator()

        #expect(try await properties.get("Name") == .string("first"))
        #expect(try await properties.getAll() == ["Name": .string("first"), "Level": .int16(3)])

        try object.setProperty("Name", .string("second"), interface: Self.interface)
        let change = try #require(try await changeIterator.next())
        #expect(change.0 == Self.interface && change.1 == ["Name": .string("second")] && change.2.isEmpty)
        #expect(try await properties.get("Name") == .string("second"))

        // An unchanged value sends nothing; a repeat sends the value as it is.
        try object.setProperty("Name", .string("second"), interface: Self.interface)
        try object.repeatProperties(["Level"], interface: Self.interface)
        #expect(try #require(try await changeIterator.next()).1 == ["Level": .int16(3)])
        #expect(throws: DBusError.self) { try object.repeatProperties(["Nope"], interface: Self.interface) }

        try await properties.set("Level", .int16(9))
        #expect(setLog.values.withLock { $0 } == [.int16(9)])
        #expect(try #require(try await changeIterator.next()).1 == ["Level": .int16(9)])
        #expect(try await properties.get("Level") == .int16(9))

        let negative = await #expect(throws: DBusError.self) { try await properties.set("Level", .int16(-1)) }
        #expect(negative?.name == .invalidArgs)
        let readOnly = await #expect(throws: DBusError.self) { try await properties.set("Name", .string("x")) }
        #expect(readOnly?.name == .propertyReadOnly)
        let wrongType = await #expect(throws: DBusError.self) { try await properties.set("Level", .string("x")) }
        #expect(wrongType?.name == .invalidArgs)
        let unknown = await #expect(throws: DBusError.self) { try await properties.get("Nope") }
        #expect(unknown?.name == .unknownProperty)
        #expect(throws: DBusError.self) { try object.setProperty("Level", .string("x"), interface: Self.interface) }
        #expect(try await properties.get("Level") == .int16(9))
    }

    @Test func introspectionDescribesObjectsAndChildren() async throws {
        let bus = try await TestBus.start()
        let server = try await bus.connect()
        let client = try await bus.connect()
        let object = try await server.export("/org/example/thing", interfaces: Self.thing())
        func introspect(_ path: ObjectPath) async throws -> String {
            try await client.call(
                destination: server.uniqueName!, path: path, interface: "org.freedesktop.DBus.Introspectable",
                member: "Introspect"
            ).decode(String.self)
        }
        let xml = try await introspect(object.path)
        #expect(xml.contains("<interface name=\"org.example.Thing1\">"))
        #expect(xml.contains("<method name=\"Echo\"><arg type=\"s\" direction=\"in\"/><arg type=\"s\" direction=\"out\"/></method>"))
        #expect(xml.contains("<property name=\"Level\" type=\"n\" access=\"readwrite\"/>"))
        #expect(xml.contains("<property name=\"Name\" type=\"s\" access=\"read\"/>"))
        #expect(xml.contains("<signal name=\"Poked\"><arg type=\"u\"/></signal>"))
        #expect(try await introspect("/").contains("<node name=\"org\"/>"))
        #expect(try await introspect("/org/example").contains("<node name=\"thing\"/>"))
    }

    @Test func onlyTheExpectedBusNameMayCall() async throws {
        let bus = try await TestBus.start()
        let server = try await bus.connect()
        let owner = try await bus.connect()
        let stranger = try await bus.connect()
        try await requestName("org.example.Owner", on: owner)
        let object = try await server.export("/org/example/thing", interfaces: Self.thing(), caller: .owner(of: "org.example.Owner"))
        let name = server.uniqueName!
        let reply = try await owner.call(destination: name, path: object.path, interface: Self.interface, member: "Echo", "ok")
        #expect(try reply.decode(String.self) == "ok")
        let denied = await #expect(throws: DBusError.self) {
            try await stranger.call(destination: name, path: object.path, interface: Self.interface, member: "Echo", "no")
        }
        #expect(denied?.name == .accessDenied)
        let deniedProperties = await #expect(throws: DBusError.self) {
            try await Properties(connection: stranger, destination: name, path: object.path).getAll()
        }
        #expect(deniedProperties?.name == .accessDenied)

        // The name moves: the new owner may call, the old one may not.
        var owners = try await server.nameOwner(of: "org.example.Owner").makeAsyncIterator()
        #expect(try await owners.next() == owner.uniqueName)
        owner.close()
        #expect(try await owners.next() == .some(nil))
        try await requestName("org.example.Owner", on: stranger)
        #expect(try await owners.next() == stranger.uniqueName)
        let allowed = try await stranger.call(destination: name, path: object.path, interface: Self.interface, member: "Echo", "now")
        #expect(try allowed.decode(String.self) == "now")
    }

    private func requestName(_ name: String, on connection: Connection) async throws {
        let reply = try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName", name, UInt32(4))  // DBUS_NAME_FLAG_DO_NOT_QUEUE
        #expect(try reply.decode(UInt32.self) == 1)
    }
}

/// A small client for `org.freedesktop.DBus.Properties`, as the BlueZ layer would write it.
struct Properties {
    let connection: Connection
    let destination: String
    let path: ObjectPath
    var interface = ExportTests.interface

    func get(_ name: String) async throws -> Value {
        try await connection.call(
            destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get", interface, name
        ).decode(Value.self)
    }

    func getAll() async throws -> [String: Value] {
        try await connection.call(
            destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "GetAll", interface
        ).decode([String: Value].self)
    }

    func set(_ name: String, _ value: Value) async throws {
        _ = try await connection.call(
            destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Set",
            interface, name, value)
    }
}


import DBus
import DBusTestSupport
import Testing

/// Calls against a real private dbus-daemon.
@Suite(.timeLimit(.minutes(2))) struct CallTests {
    @Test func connectsAndGetsAUniqueName() async throws {
        let bus = try await TestBus.start()
        let a = try await bus.connect()
        let b = try await bus.connect()
        #expect(a.uniqueName?.hasPrefix(":") == true)
        #expect(a.uniqueName != b.uniqueName)
        let reply = try await a.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "ListNames")
        let names = try reply.decode([String].self)
        #expect(names.contains(a.uniqueName!) && names.contains(b.uniqueName!))
    }

    @Test func errorRepliesAreTypedErrors() async throws {
        let bus = try await TestBus.start()
        let a = try await bus.connect()
        await #expect(throws: DBusError(name: .serviceUnknown, message: "The name org.example.Nobody was not provided by any .service files")) {
            try await a.call(destination: "org.example.Nobody", path: "/", interface: "org.example.X", member: "Y")
        }
        do {
            _ = try await a.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "GetNameOwner", "org.example.Nobody")
            Issue.record("GetNameOwner of an unowned name succeeded")
        } catch let error as DBusError {
            #expect(error.name == .nameHasNoOwner)
            #expect(!error.message.isEmpty)
        }
    }

    @Test func callingAPeerWithoutThatObjectFails() async throws {
        let bus = try await TestBus.start()
        let a = try await bus.connect()
        let b = try await bus.connect()
        await #expect(throws: DBusError.self) {
            try await a.call(destination: b.uniqueName!, path: "/nothing", interface: "org.example.X", member: "Y")
        }
    }

    @Test func anAbsentBusIsAClearError() async throws {
        do {
            _ = try await Connection.connect(address: "unix:path=/nonexistent/estimator-test-bus")
            Issue.record("connected to nothing")
        } catch let error as DBusError {
            #expect(error.message.contains("cannot connect to the bus at unix:path=/nonexistent/estimator-test-bus"))
        }
        await #expect(throws: DBusError.self) { try await Connection.connect(address: "nonsense") }
    }

    @Test func systemBusHonoursTheEnvironment() {
        // Tests run in parallel, so the lookup is checked with an injected environment.
        let custom = Connection.systemBusAddress { $0 == "DBUS_SYSTEM_BUS_ADDRESS" ? "unix:path=/tmp/x" : nil }
        #expect(custom == "unix:path=/tmp/x")
        #expect(Connection.systemBusAddress { _ in nil } == "unix:path=/var/run/dbus/system_bus_socket")
    }
}

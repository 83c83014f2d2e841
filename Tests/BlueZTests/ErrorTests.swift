import BlueZ
import BlueZTestSupport
import DBus
import DBusTestSupport
import Glibc
import Testing

@Suite(.timeLimit(.minutes(2))) struct ErrorTests {
    @Test(arguments: [
        ("org.freedesktop.DBus.Error.ServiceUnknown", "", BlueZError.Kind.bluetoothdAbsent),
        ("org.freedesktop.DBus.Error.NameHasNoOwner", "", .bluetoothdAbsent),
        ("org.freedesktop.DBus.Error.NoServer", "", .busUnavailable),
        ("org.freedesktop.DBus.Error.FileNotFound", "", .busUnavailable),
        ("org.freedesktop.DBus.Error.AccessDenied", "", .accessDenied),
        ("org.bluez.Error.NotReady", "Resource Not Ready", .notPowered),
        ("org.bluez.Error.NotPermitted", "Maximum advertisements reached", .noAdvertisingSlot),
        ("org.bluez.Error.NotPermitted", "Something else", .failed),
        ("org.freedesktop.DBus.Error.UnknownObject", "", .adapterNotFound),
        ("org.bluez.Error.Failed", "Failed to register advertisement", .failed),
    ])
    func classifiesBlueZErrorNames(name: String, message: String, kind: BlueZError.Kind) {
        let error = BlueZError(DBusError(name: DBusError.Name(rawValue: name), message: message))
        #expect(error.kind == kind)
        #expect(error.name?.rawValue == name)
        #expect(!error.message.isEmpty)
    }

    /// The only test that touches the system bus's address: no other test uses it.
    @Test func busUnavailableWhenTheSystemBusIsNotThere() async throws {
        let saved = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
        setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/estimator-test-bus", 1)
        defer {
            if let saved { setenv("DBUS_SYSTEM_BUS_ADDRESS", saved, 1) } else { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        }
        let error = await #expect(throws: BlueZError.self) { try await BlueZ.system() }
        #expect(error?.kind == .busUnavailable)
        #expect(error?.name != nil)
    }

    @Test func bluetoothdAbsentWhenNobodyOwnsOrgBluez() async throws {
        let bus = try await TestBus.start()
        let bluez = BlueZ(bus: try await bus.connect())
        let error = await #expect(throws: BlueZError.self) { try await bluez.adapters() }
        #expect(error?.kind == .bluetoothdAbsent)
        #expect(error?.name == .serviceUnknown)
    }

    @Test func accessDeniedByBusPolicy() async throws {
        let bus = try await TestBus.start(policy: TestBus.policyDenyingBlueZ)
        // Someone owns org.bluez, so the only obstacle is the policy.
        let owner = try await bus.connect()
        _ = try await owner.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName", "org.bluez", UInt32(0))
        let bluez = BlueZ(bus: try await bus.connect())
        let error = await #expect(throws: BlueZError.self) { try await bluez.adapter("hci0") }
        #expect(error?.kind == .accessDenied)
        #expect(error?.name == .accessDenied)
    }
}

import BlueZTestSupport
import DBus
import DBusTestSupport

/// A system bus for the `estimator` processes a test runs: a private
/// dbus-daemon (their `DBUS_SYSTEM_BUS_ADDRESS`) with a fake bluetoothd on it,
/// served from the test process while they run.
final class FakeSystem: Sendable {
    let bus: TestBus
    /// The fake bluetoothd; nil when the test wants `org.bluez` absent.
    let bluez: FakeBlueZ?

    /// A bus with a fake bluetoothd owning `org.bluez` and `adapters` on it
    /// (none when `bluetoothd` is false). `policy` replaces the bus's
    /// allow-all policy (to refuse us as a real system bus can). Adapters
    /// in `extended` have extended advertising.
    static func start(adapters: [String] = ["hci0", "hci1"], extended: Set<String> = [], bluetoothd: Bool = true,
                      policy: String? = nil) async throws -> FakeSystem
    {
        let bus = try await TestBus.start(policy: policy)
        let bluez = bluetoothd ? try await FakeBlueZ.start(on: bus, adapters: adapters, extended: extended) : nil
        return FakeSystem(bus: bus, bluez: bluez)
    }

    private init(bus: TestBus, bluez: FakeBlueZ?) {
        self.bus = bus
        self.bluez = bluez
    }

    /// The fake, for tests that need it.
    var fake: FakeBlueZ {
        get throws { try bluez ?? { throw DBusError(name: .failed, message: "this system has no bluetoothd") }() }
    }
}

import CDBus

#if canImport(Glibc)
import Glibc
#endif

/// A connection to a D-Bus bus (or peer): the entry point of the `DBus` module.
///
/// Overview:
///
///     let bus = try await Connection.system()            // or .session(), .connect(address:)
///
///     // Calls: typed arguments in, a reply `Message` out, typed decoding.
///     let reply = try await bus.call(destination: "org.bluez", path: "/", interface:
///         "org.freedesktop.DBus.ObjectManager", member: "GetManagedObjects")
///     let objects = try reply.decode([ObjectPath: [String: [String: Value]]].self)
///     // Failures are `DBusError` (name + message), e.g. `org.bluez.Error.NotReady`;
///     // a reply of the wrong types is `InvalidSignature`, never a crash.
///
///     // Signals: an AsyncSequence per match rule; ending the iteration removes the rule.
///     for try await signal in try await bus.signals(matching: MatchRule(
///         sender: "org.bluez", interface: "org.freedesktop.DBus.Properties",
///         member: "PropertiesChanged")) { ... }
///
///     // Exported objects: a handle whose lifetime is the registration.
///     let object = try await bus.export(path, interfaces: [...], caller: .owner(of: "org.bluez"))
///     try object.setProperty("LocalName", .string("x"), interface: "...")  // emits PropertiesChanged
///
///     // Name owners: the current owner, then every change, as a stream.
///     for try await owner in try await bus.nameOwner(of: "org.bluez") { ... }
///
/// Values: `Value` holds any D-Bus value; Swift types conform to `DBusEncodable` /
/// `DBusDecodable` (integers, `Bool`, `Double`, `String`, `ObjectPath`, `Signature`,
/// arrays, dictionaries; `Value` itself stands for a variant `v`).
///
/// Threading: each connection has one event-loop thread that sleeps in `poll` until
/// the socket or a timeout needs it; every libdbus call on the connection runs there.
/// It hands signals to their streams in batches, one per read round, and each stream
/// decodes in the task that iterates it, without hopping executors per signal. The
/// type is `Sendable`; use it from any task. Closing it (or dropping the last reference)
/// ends every pending call, stream and exported object with a `Disconnected` error.
public final class Connection: Sendable {
    let core: ConnectionCore

    /// The default reply timeout of method calls.
    public static let defaultTimeout: Duration = .seconds(25)

    private init(core: ConnectionCore) { self.core = core }

    deinit { core.close() }

    /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS` if set, else the standard socket.
    public static func system() async throws -> Connection {
        try await connect(address: systemBusAddress(environment: environment), describing: "the system bus")
    }

    /// The session bus, from `DBUS_SESSION_BUS_ADDRESS`.
    public static func session() async throws -> Connection {
        guard let address = environment("DBUS_SESSION_BUS_ADDRESS") else {
            throw DBusError(name: .noServer, message: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set")
        }
        return try await connect(address: address, describing: "the session bus")
    }

    /// A bus at a D-Bus address such as `unix:path=/run/x`. With `register` (the
    /// default) the connection says Hello and gets a unique name; without, it is a
    /// plain peer-to-peer connection.
    public static func connect(address: String, register: Bool = true) async throws -> Connection {
        try await connect(address: address, register: register, describing: "the bus at \(address)")
    }

    private static func connect(address: String, register: Bool = true, describing what: String) async throws -> Connection {
        if address.utf8.contains(0) { throw DBusError(name: .badAddress, message: "bad D-Bus address") }
        let raw: OpaquePointer?
        do {
            raw = try withLibDBusError { error in dbus_connection_open_private(address, error) }
        } catch {
            throw DBusError(name: error.name, message: "cannot connect to \(what): \(error.message)")
        }
        guard let raw else { throw DBusError(name: .noServer, message: "cannot connect to \(what)") }
        let connection: Connection
        do {
            connection = Connection(core: try ConnectionCore(raw: raw))
        } catch {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw error
        }
        guard register else { return connection }
        do {
            let reply = try await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "Hello")
            connection.core.setUniqueName(try reply.decode(String.self))
        } catch let error as DBusError {
            throw DBusError(name: error.name, message: "cannot register on \(what): \(error.message)")
        }
        return connection
    }

    /// Our unique bus name (such as `:1.42`), or nil on a peer-to-peer connection.
    public var uniqueName: String? { core.uniqueName }

    /// Reads the bus at most once per `interval` while messages come closer
    /// together than that (`ReadPacing`), so that a dense stream of signals
    /// (BlueZ's `PropertiesChanged` for each advertising report) wakes the
    /// reading thread about once per interval for all of them rather than once
    /// each (a read then reads on while the socket has more); a message waits
    /// at most `interval` longer. While a call waits for
    /// its reply, the bus is read at once. Zero, the default, reads whatever
    /// arrives at once.
    public func paceReading(every interval: Duration) {
        let milliseconds = UInt64(max(0, (interval / .milliseconds(1)).rounded()))
        core.loop.perform { [core] in core.loop.pace(every: milliseconds) }
    }

    /// Closes the connection. Pending calls fail, streams end with `Disconnected`.
    public func close() { core.close() }

    /// Where the system bus is, given a way to read the environment.
    package static func systemBusAddress(environment: (String) -> String?) -> String {
        environment("DBUS_SYSTEM_BUS_ADDRESS") ?? "unix:path=/var/run/dbus/system_bus_socket"
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}

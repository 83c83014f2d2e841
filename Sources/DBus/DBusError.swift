import CDBus

/// A D-Bus error: a name such as `org.bluez.Error.NotReady` and a human-readable message.
///
/// Errors replied by peers arrive as this type unchanged, and errors this module detects
/// locally (bad arguments, wrong signature, disconnection) use the standard
/// `org.freedesktop.DBus.Error.*` names, so callers match on one thing:
///
///     catch let error as DBusError where error.name == "org.bluez.Error.NotReady" { ... }
public struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An error name; any string literal converts, and common ones are predefined.
    public struct Name: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }
        public var description: String { rawValue }

        public static let failed: Name = "org.freedesktop.DBus.Error.Failed"
        public static let noReply: Name = "org.freedesktop.DBus.Error.NoReply"
        public static let timeout: Name = "org.freedesktop.DBus.Error.Timeout"
        public static let disconnected: Name = "org.freedesktop.DBus.Error.Disconnected"
        public static let noServer: Name = "org.freedesktop.DBus.Error.NoServer"
        public static let badAddress: Name = "org.freedesktop.DBus.Error.BadAddress"
        public static let serviceUnknown: Name = "org.freedesktop.DBus.Error.ServiceUnknown"
        public static let nameHasNoOwner: Name = "org.freedesktop.DBus.Error.NameHasNoOwner"
        public static let accessDenied: Name = "org.freedesktop.DBus.Error.AccessDenied"
        public static let unknownMethod: Name = "org.freedesktop.DBus.Error.UnknownMethod"
        public static let unknownObject: Name = "org.freedesktop.DBus.Error.UnknownObject"
        public static let unknownInterface: Name = "org.freedesktop.DBus.Error.UnknownInterface"
        public static let unknownProperty: Name = "org.freedesktop.DBus.Error.UnknownProperty"
        public static let propertyReadOnly: Name = "org.freedesktop.DBus.Error.PropertyReadOnly"
        public static let invalidArgs: Name = "org.freedesktop.DBus.Error.InvalidArgs"
        public static let invalidSignature: Name = "org.freedesktop.DBus.Error.InvalidSignature"
        public static let noMemory: Name = "org.freedesktop.DBus.Error.NoMemory"
    }

    /// The error name.
    public let name: Name
    /// The message that came with it (may be empty).
    public let message: String

    public init(name: Name, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name.rawValue : "\(name.rawValue): \(message)" }

    /// Bad arguments (ours or a peer's): `org.freedesktop.DBus.Error.InvalidArgs`.
    public static func invalidArguments(_ message: String) -> DBusError {
        DBusError(name: .invalidArgs, message: message)
    }

    /// A message whose arguments are not of the expected types.
    public static func signatureMismatch(expected: String, actual: String) -> DBusError {
        DBusError(name: .invalidSignature, message: "expected arguments \"\(expected)\", got \"\(actual)\"")
    }

    /// The connection is closed or the bus went away.
    public static func disconnected(_ message: String = "the connection to the bus is closed") -> DBusError {
        DBusError(name: .disconnected, message: message)
    }

    static let outOfMemory = DBusError(name: .noMemory, message: "libdbus ran out of memory")

    /// Takes (and frees) a libdbus error that is set.
    init(consuming error: inout CDBus.DBusError) {
        let name = error.name.map { String(cString: $0) } ?? Name.failed.rawValue
        let message = error.message.map { String(cString: $0) } ?? ""
        dbus_error_free(&error)
        self.init(name: Name(rawValue: name), message: message)
    }
}

/// Runs a libdbus call taking a `DBusError*`, turning a set error into a thrown `DBusError`.
func withLibDBusError<T>(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> T) throws(DBusError) -> T {
    var error = CDBus.DBusError()
    dbus_error_init(&error)
    let result = body(&error)
    if dbus_error_is_set(&error) != 0 { throw DBusError(consuming: &error) }
    return result
}

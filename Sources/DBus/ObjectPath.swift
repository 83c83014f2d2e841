import CDBus

/// A validated D-Bus object path (`o`), such as `/org/bluez/hci0`.
public struct ObjectPath: Hashable, Sendable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The path text.
    public let rawValue: String

    /// Validates `rawValue`; returns nil if it is not a legal object path.
    public init?(_ rawValue: String) {
        guard DBusSyntax.isValid(rawValue, dbus_validate_path) else { return nil }
        self.rawValue = rawValue
    }

    /// A literal path; an illegal literal is a programming error and traps.
    public init(stringLiteral value: String) {
        guard let path = ObjectPath(value) else { preconditionFailure("invalid object path literal \(value)") }
        self = path
    }

    /// Skips validation: for paths libdbus has already validated.
    init(trusted rawValue: String) { self.rawValue = rawValue }

    /// The root path `/`.
    public static let root = ObjectPath(trusted: "/")

    /// Whether `self` is `other` or lies below it.
    public func isDescendant(of other: ObjectPath) -> Bool {
        if other.rawValue == "/" { return true }
        // Compared as bytes, without building `other + "/"`: this runs for every signal routed.
        var mine = rawValue.utf8.makeIterator()
        for byte in other.rawValue.utf8 where mine.next() != byte { return false }
        let next = mine.next()
        return next == nil || next == UInt8(ascii: "/")
    }

    public var description: String { rawValue }
    public static func < (lhs: ObjectPath, rhs: ObjectPath) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A validated D-Bus type signature (`g`), such as `a{sv}`; may hold several complete types.
public struct Signature: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The signature text.
    public let rawValue: String

    /// Validates `rawValue`; returns nil if it is not a legal signature.
    public init?(_ rawValue: String) {
        guard DBusSyntax.isValid(rawValue, { text, error in dbus_signature_validate(text, error) })
        else { return nil }
        self.rawValue = rawValue
    }

    /// A literal signature; an illegal literal is a programming error and traps.
    public init(stringLiteral value: String) {
        guard let signature = Signature(value) else { preconditionFailure("invalid signature literal \(value)") }
        self = signature
    }

    init(trusted rawValue: String) { self.rawValue = rawValue }

    /// The complete types this signature is made of, in order.
    public var types: [DBusType] {
        // A validated signature always parses.
        (try? DBusType.parseList(rawValue)) ?? []
    }

    public var description: String { rawValue }
}

/// Name checks through libdbus, so we never hand libdbus a string it would reject
/// (its argument checks abort the process).
enum DBusSyntax {
    static func isValid(
        _ text: String, _ validate: (UnsafePointer<CChar>, UnsafeMutablePointer<CDBus.DBusError>) -> dbus_bool_t
    ) -> Bool {
        if text.utf8.contains(0) { return false }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        return text.withCString { validate($0, &error) } != 0
    }

    static func isInterfaceName(_ name: String) -> Bool { isValid(name, dbus_validate_interface) }
    static func isMemberName(_ name: String) -> Bool { isValid(name, dbus_validate_member) }
    static func isBusName(_ name: String) -> Bool { isValid(name, dbus_validate_bus_name) }
    static func isErrorName(_ name: String) -> Bool { isValid(name, dbus_validate_error_name) }
}

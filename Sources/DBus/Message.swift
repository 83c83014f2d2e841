import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// A D-Bus message: a method call, a reply, an error or a signal.
///
/// Wraps a libdbus message. Received messages are immutable and safe to share; a
/// message you build is filled with `append` before it is sent and not changed after.
public final class Message: @unchecked Sendable {
    /// The four kinds of message.
    public enum Kind: Sendable {
        case methodCall, methodReturn, error, signal
    }

    let raw: OpaquePointer

    /// Takes over one reference to `raw`.
    init(taking raw: OpaquePointer) { self.raw = raw }

    deinit { dbus_message_unref(raw) }

    // MARK: - Building

    /// A method call. Names are checked; an invalid one throws `InvalidArgs`.
    public static func methodCall(
        destination: String?, path: ObjectPath, interface: String?, member: String
    ) throws(DBusError) -> Message {
        if let destination, !DBusSyntax.isBusName(destination) { throw .invalidArguments("bad bus name \"\(destination)\"") }
        if let interface, !DBusSyntax.isInterfaceName(interface) { throw .invalidArguments("bad interface name \"\(interface)\"") }
        guard DBusSyntax.isMemberName(member) else { throw .invalidArguments("bad member name \"\(member)\"") }
        let raw = withOptionalCString(destination) { destination in
            withOptionalCString(interface) { interface in
                dbus_message_new_method_call(destination, path.rawValue, interface, member)
            }
        }
        guard let raw else { throw .outOfMemory }
        return Message(taking: raw)
    }

    /// A signal. Names are checked; an invalid one throws `InvalidArgs`.
    public static func signal(path: ObjectPath, interface: String, member: String) throws(DBusError) -> Message {
        guard DBusSyntax.isInterfaceName(interface) else { throw .invalidArguments("bad interface name \"\(interface)\"") }
        guard DBusSyntax.isMemberName(member) else { throw .invalidArguments("bad member name \"\(member)\"") }
        guard let raw = dbus_message_new_signal(path.rawValue, interface, member) else { throw .outOfMemory }
        return Message(taking: raw)
    }

    /// The successful reply to this method call.
    public func makeReturn() throws(DBusError) -> Message {
        guard let raw = dbus_message_new_method_return(raw) else { throw .outOfMemory }
        return Message(taking: raw)
    }

    /// The error reply to this method call.
    public func makeError(_ error: DBusError) throws(DBusError) -> Message {
        let name = DBusSyntax.isErrorName(error.name.rawValue) ? error.name : .failed
        let text = error.message.replacingNULs()
        guard let reply = dbus_message_new_error(raw, name.rawValue, text) else { throw .outOfMemory }
        return Message(taking: reply)
    }

    /// Appends typed arguments. If one is invalid nothing more is appended and the
    /// message must not be sent.
    public func append<each T: DBusEncodable>(_ values: repeat each T) throws(DBusError) {
        var writer = MessageWriter(appendingTo: raw)
        for value in repeat each values { try value.encode(to: &writer) }
    }

    /// Appends dynamic values, each as its own type.
    public func append(contentsOf values: [Value]) throws(DBusError) {
        var writer = MessageWriter(appendingTo: raw)
        for value in values { try writer.writeValue(value) }
    }

    // MARK: - Reading

    /// Reads all the arguments as typed values; throws `InvalidSignature` unless the
    /// arguments are exactly these types.
    @inlinable
    public func decode<each T: DBusDecodable>(_ types: repeat (each T).Type) throws(DBusError) -> (repeat each T) {
        var reader = MessageReader(self)
        do {
            let result = (repeat try reader.read((each T).self))
            guard reader.isAtEnd else { throw DBusError.invalidArguments("extra arguments") }
            return result
        } catch {
            var expected: [DBusType] = []
            for type in repeat (each T).self { expected.append(type.dbusType) }
            throw signatureMismatch(expected: expected)
        }
    }

    /// The error for arguments that are not of the `expected` types.
    @usableFromInline
    func signatureMismatch(expected types: [DBusType]) -> DBusError {
        var expected = ""
        for type in types { type.appendSignature(to: &expected) }
        return DBusError.signatureMismatch(expected: expected, actual: signature.rawValue)
    }

    /// All the arguments as dynamic values.
    public func values() throws(DBusError) -> [Value] {
        var reader = MessageReader(self)
        var values: [Value] = []
        while !reader.isAtEnd { values.append(try reader.readValue()) }
        return values
    }

    /// A reader over the arguments, for decoding step by step.
    public func makeReader() -> MessageReader { MessageReader(self) }

    // MARK: - Header

    /// The kind of message.
    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case Int32(DBUS_MESSAGE_TYPE_METHOD_CALL): .methodCall
        case Int32(DBUS_MESSAGE_TYPE_METHOD_RETURN): .methodReturn
        case Int32(DBUS_MESSAGE_TYPE_ERROR): .error
        default: .signal
        }
    }

    /// The object path of a call or signal.
    public var path: ObjectPath? { dbus_message_get_path(raw).map { ObjectPath(trusted: String(cString: $0)) } }
    /// The interface of a call or signal.
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    /// The method or signal name.
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    /// The sender's unique bus name (set by the bus).
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    /// The destination bus name.
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    /// The error name of an error reply.
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    /// The signature of the arguments.
    public var signature: Signature { Signature(trusted: String(cString: dbus_message_get_signature(raw))) }
    /// The serial number the sender gave this message.
    public var serial: UInt32 { dbus_message_get_serial(raw) }

    /// The error an error reply carries (its first argument, if a string, is the message).
    public var error: DBusError? {
        guard kind == .error, let name = errorName else { return nil }
        var reader = makeReader()
        let text = (try? reader.read(String.self)) ?? ""
        return DBusError(name: DBusError.Name(rawValue: name), message: text)
    }

    /// Whether the method or signal name is `name`, compared in place: for routing
    /// on a hot path without building a string.
    public func hasMember(_ name: String) -> Bool {
        guard let member = dbus_message_get_member(raw) else { return false }
        return name.withCString { strcmp(member, $0) == 0 }
    }

    /// Whether a header field equals `text`, without building a Swift string (hot path).
    func header(_ field: (OpaquePointer) -> UnsafePointer<CChar>?, equals text: [CChar]) -> Bool {
        guard let value = field(raw) else { return false }
        return strcmp(value, text) == 0
    }
}

extension Message: CustomStringConvertible {
    public var description: String {
        let target = [path?.rawValue, interface, member].compactMap { $0 }.joined(separator: " ")
        return "\(kind) \(target) (\(signature.rawValue))"
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString(body)
}

extension String {
    /// D-Bus strings cannot hold NUL; error messages are free text, so replace it.
    func replacingNULs() -> String {
        utf8.contains(0) ? String(decoding: utf8.map { $0 == 0 ? UInt8(ascii: "?") : $0 }, as: UTF8.self) : self
    }
}

import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// Reads a message's arguments in order, checking each type as it goes.
///
/// A reader never traps on what a peer sent: any difference from the expected
/// types is a thrown `DBusError` (`InvalidSignature`).
public struct MessageReader {
    @usableFromInline var iter: DBusMessageIter
    /// Keeps the message (and so the memory `iter` points into) alive.
    @usableFromInline let message: Message

    @usableFromInline init(_ message: Message) {
        self.message = message
        iter = DBusMessageIter()
        dbus_message_iter_init(message.raw, &iter)
    }

    @usableFromInline init(iter: DBusMessageIter, message: Message) {
        self.iter = iter
        self.message = message
    }

    /// Whether every argument at this level has been read.
    @inlinable
    public var isAtEnd: Bool { mutating get { dbus_message_iter_get_arg_type(&iter) == 0 } }

    /// Reads the next argument as `T`.
    @inlinable
    public mutating func read<T: DBusDecodable>(_ type: T.Type = T.self) throws(DBusError) -> T {
        try T(from: &self)
    }

    /// Steps over the next argument (of any type) without decoding it.
    public mutating func skip() { dbus_message_iter_next(&iter) }

    /// Reads the next argument whatever its type.
    public mutating func readValue() throws(DBusError) -> Value {
        let code = dbus_message_iter_get_arg_type(&iter)
        if let basic = TypeCode.basicType(code) { return try readBasicValue(basic) }
        switch code {
        case TypeCode.variant:
            return .variant(try readVariant { reader throws(DBusError) in try reader.readValue() })
        case TypeCode.structure:
            return .structure(try readStructure { reader throws(DBusError) in
                var fields: [Value] = []
                while !reader.isAtEnd { fields.append(try reader.readValue()) }
                return fields
            })
        case TypeCode.array:
            return try readArrayValue()
        default:
            throw mismatch(expected: "a value")
        }
    }

    /// Reads a structure, handing its fields to `body` (which must read them all).
    @inlinable
    public mutating func readStructure<T>(_ body: (inout MessageReader) throws(DBusError) -> T) throws(DBusError) -> T {
        var sub = try enterStructure()
        let result = try body(&sub)
        guard sub.isAtEnd else { throw sub.mismatch(expected: "end of structure") }
        return result
    }

    /// Reads a variant, handing its content to `body`.
    @inlinable
    public mutating func readVariant<T>(_ body: (inout MessageReader) throws(DBusError) -> T) throws(DBusError) -> T {
        var sub = try enterVariant()
        return try body(&sub)
    }

    /// Reads an array (not a dictionary) of `elementType`, calling `body` once per element.
    /// An empty array must still have the expected element type.
    @inlinable
    public mutating func readArray(
        of elementType: DBusType, _ body: (inout MessageReader) throws(DBusError) -> Void
    ) throws(DBusError) {
        var reader = try enterArray(of: elementType)
        while !reader.isAtEnd { try body(&reader) }
    }

    /// Checks the next argument is an array of `elementType` and steps into it.
    @usableFromInline
    mutating func enterArray(of elementType: DBusType) throws(DBusError) -> MessageReader {
        guard dbus_message_iter_get_arg_type(&iter) == TypeCode.array else {
            throw mismatch(expected: "a" + elementType.signature)
        }
        try checkElementType(elementType, code: elementType.code, isBasic: elementType.isBasic)
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        dbus_message_iter_next(&iter)
        return MessageReader(iter: sub, message: message)
    }

    /// Reads a dictionary `a{KV}` entry by entry without building a Swift dictionary:
    /// `body` gets each key and a reader positioned on its value (which it must read).
    @inlinable
    public mutating func readDictionary<Key: DBusDecodable>(
        keyType: Key.Type, valueType: DBusType,
        _ body: (Key, inout MessageReader) throws(DBusError) -> Void
    ) throws(DBusError) {
        var entries = try enterDictionary(keyType: Key.dbusType, valueType: valueType)
        while var reader = entries.nextDictionaryEntry() {
            let key = try Key(from: &reader)
            try body(key, &reader)
            guard reader.isAtEnd else { throw reader.mismatch(expected: "end of dictionary entry") }
        }
    }

    /// Checks the next argument is an `a{KV}` and steps into it.
    @usableFromInline
    mutating func enterDictionary(keyType: DBusType, valueType: DBusType) throws(DBusError) -> MessageReader {
        guard dbus_message_iter_get_arg_type(&iter) == TypeCode.array else {
            throw mismatch(expected: DBusType.dictionary(key: keyType, value: valueType).signature)
        }
        try checkElementType(
            DBusType.dictionary(key: keyType, value: valueType), code: TypeCode.dictEntry, isBasic: false)
        var entries = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &entries)
        dbus_message_iter_next(&iter)
        return MessageReader(iter: entries, message: message)
    }

    /// Inside a dictionary: a reader on the next entry, or nil after the last.
    @usableFromInline
    mutating func nextDictionaryEntry() -> MessageReader? {
        guard dbus_message_iter_get_arg_type(&iter) == TypeCode.dictEntry else { return nil }
        var entry = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &entry)
        dbus_message_iter_next(&iter)
        return MessageReader(iter: entry, message: message)
    }

    // MARK: - Basic values

    /// Reads a basic value after checking its type code; used by the `DBusDecodable` conformances.
    mutating func readBasic(_ code: Int32, _ name: String) throws(DBusError) -> DBusBasicValue {
        guard dbus_message_iter_get_arg_type(&iter) == code else { throw mismatch(expected: name) }
        var value = DBusBasicValue()
        dbus_message_iter_get_basic(&iter, &value)
        dbus_message_iter_next(&iter)
        return value
    }

    mutating func readString(_ code: Int32, _ name: String) throws(DBusError) -> String {
        let value = try readBasic(code, name)
        // libdbus validated the UTF-8 when the message arrived.
        return String(cString: value.str)
    }

    /// Reads the next argument, a string, and returns whether it is `expected`,
    /// compared in place: no Swift string is built (hot path).
    public mutating func readString(equalTo expected: String) throws(DBusError) -> Bool {
        let value = try readBasic(TypeCode.string, "s")
        return expected.withCString { strcmp(value.str, $0) == 0 }
    }

    /// Bytes of an `ay`, copied in one go.
    @usableFromInline
    mutating func readByteArray() throws(DBusError) -> [UInt8] {
        guard dbus_message_iter_get_arg_type(&iter) == TypeCode.array,
            dbus_message_iter_get_element_type(&iter) == TypeCode.byte
        else { throw mismatch(expected: "ay") }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        dbus_message_iter_next(&iter)
        var pointer: UnsafeRawPointer? = nil
        var count: Int32 = 0
        withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_fixed_array(&sub, $0, &count) }
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: Int(count)))
    }

    private mutating func readBasicValue(_ type: DBusType) throws(DBusError) -> Value {
        switch type {
        case .byte: .byte(try UInt8(from: &self))
        case .boolean: .boolean(try Bool(from: &self))
        case .int16: .int16(try Int16(from: &self))
        case .uint16: .uint16(try UInt16(from: &self))
        case .int32: .int32(try Int32(from: &self))
        case .uint32: .uint32(try UInt32(from: &self))
        case .int64: .int64(try Int64(from: &self))
        case .uint64: .uint64(try UInt64(from: &self))
        case .double: .double(try Double(from: &self))
        case .string: .string(try String(from: &self))
        case .objectPath: .objectPath(try ObjectPath(from: &self))
        default: .signature(try Signature(from: &self))
        }
    }

    private mutating func readArrayValue() throws(DBusError) -> Value {
        let elementCode = dbus_message_iter_get_element_type(&iter)
        // Basic elements need no signature parse: the common case stays allocation-light.
        let type: DBusType
        if let basic = TypeCode.basicType(elementCode) {
            type = .array(basic)
        } else {
            type = try DBusType(parsing: currentSignature())
        }
        switch type {
        case .dictionary(let keyType, let valueType):
            var entries: [Value: Value] = [:]
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            dbus_message_iter_next(&iter)
            while dbus_message_iter_get_arg_type(&sub) == TypeCode.dictEntry {
                var entry = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &entry)
                dbus_message_iter_next(&sub)
                var reader = MessageReader(iter: entry, message: message)
                let key = try reader.readValue()
                entries[key] = try reader.readValue()
            }
            return .dictionary(key: keyType, value: valueType, entries)
        case .array(let element):
            var items: [Value] = []
            try readArray(of: element) { reader throws(DBusError) in items.append(try reader.readValue()) }
            return .array(element: element, items)
        default:
            throw mismatch(expected: "an array")
        }
    }

    // MARK: - Helpers

    @usableFromInline
    mutating func enterStructure() throws(DBusError) -> MessageReader { try enter(TypeCode.structure, "(...)") }

    @usableFromInline
    mutating func enterVariant() throws(DBusError) -> MessageReader { try enter(TypeCode.variant, "v") }

    private mutating func enter(_ code: Int32, _ name: String) throws(DBusError) -> MessageReader {
        guard dbus_message_iter_get_arg_type(&iter) == code else { throw mismatch(expected: name) }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        dbus_message_iter_next(&iter)
        return MessageReader(iter: sub, message: message)
    }

    /// Checks an array's element type: by code always, and by full signature when the
    /// array is empty (non-empty elements are checked as they are read), so an empty
    /// `aas` is not taken for an `aai` while the common case stays allocation-free.
    private mutating func checkElementType(
        _ expected: @autoclosure () -> DBusType, code: Int32, isBasic: Bool
    ) throws(DBusError) {
        guard dbus_message_iter_get_element_type(&iter) == code else {
            throw mismatch(expected: Self.arraySignature(expected()))
        }
        if isBasic { return }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        guard dbus_message_iter_get_arg_type(&sub) == TypeCode.invalid else { return }
        let wanted = Self.arraySignature(expected())
        guard currentSignature() == wanted else { throw mismatch(expected: wanted) }
    }

    /// `aT` for an element type, `a{KV}` for a dictionary (whose "element" is the entry).
    private static func arraySignature(_ element: DBusType) -> String {
        if case .dictionary = element { return element.signature }
        return "a" + element.signature
    }

    private mutating func currentSignature() -> String {
        guard let text = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(text) }
        return String(cString: text)
    }

    /// The error for a type difference at the current position.
    @usableFromInline
    mutating func mismatch(expected: String) -> DBusError {
        let actual = dbus_message_iter_get_arg_type(&iter) == TypeCode.invalid ? "nothing" : currentSignature()
        return DBusError(name: .invalidSignature, message: "expected \(expected), got \(actual)")
    }
}

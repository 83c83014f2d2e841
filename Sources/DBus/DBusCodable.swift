import CDBus

/// A Swift type with one D-Bus type.
public protocol DBusTyped: Sendable {
    /// The D-Bus type every value of this Swift type has.
    static var dbusType: DBusType { get }
}

/// A Swift type that can be written as a D-Bus argument of type `dbusType`.
public protocol DBusEncodable: DBusTyped {
    /// Appends this value.
    func encode(to writer: inout MessageWriter) throws(DBusError)
}

/// A Swift type that can be read from a D-Bus argument of type `dbusType`.
public protocol DBusDecodable: DBusTyped {
    /// Reads one argument; throws `InvalidSignature` if it has another type.
    init(from reader: inout MessageReader) throws(DBusError)
    /// Converts a dynamic value of `dbusType` (not wrapped in a variant).
    init(value: Value) throws(DBusError)
}

/// Both directions.
public typealias DBusCodable = DBusEncodable & DBusDecodable

extension DBusEncodable {
    /// This value as a dynamic `Value` of `dbusType` (a `Value` becomes `.variant`).
    public func toValue() throws(DBusError) -> Value {
        if let value = self as? Value { return .variant(value) }
        // Round-trip through a scratch message: one code path, used off the hot path only.
        guard let raw = dbus_message_new(Int32(DBUS_MESSAGE_TYPE_SIGNAL)) else { throw .outOfMemory }
        let message = Message(taking: raw)
        var writer = MessageWriter(appendingTo: raw)
        try encode(to: &writer)
        var reader = MessageReader(message)
        return try reader.readValue()
    }
}

private func typeMismatch(_ value: Value, _ type: DBusType) -> DBusError {
    .invalidArguments("expected a value of type \(type.signature), got \(value.type.signature)")
}

// MARK: - Basic types

extension UInt8: DBusCodable {
    public static var dbusType: DBusType { .byte }
    public init(from reader: inout MessageReader) throws(DBusError) { self = try reader.readBasic(TypeCode.byte, "y").byt }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        var v = DBusBasicValue(); v.byt = self; try writer.writeBasic(.byte, v)
    }
    public init(value: Value) throws(DBusError) {
        guard case .byte(let v) = value else { throw typeMismatch(value, .byte) }
        self = v
    }
}

extension Bool: DBusCodable {
    public static var dbusType: DBusType { .boolean }
    public init(from reader: inout MessageReader) throws(DBusError) {
        self = try reader.readBasic(TypeCode.boolean, "b").bool_val != 0
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        var v = DBusBasicValue(); v.bool_val = self ? 1 : 0; try writer.writeBasic(.boolean, v)
    }
    public init(value: Value) throws(DBusError) {
        guard case .boolean(let v) = value else { throw typeMismatch(value, .boolean) }
        self = v
    }
}

extension Int16: DBusCodable {
    public static var dbusType: DBusType { .int16 }
    public init(from reader: inout MessageReader) throws(DBusError) { self = try reader.readBasic(TypeCode.int16, "n").i16 }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        var v = DBusBasicValue(); v.i16 = self; try writer.writeBasic(.int16, v)
    }
    public init(value: Value) throws(DBusError) {
        guard case .int16(let v) = value else { throw typeMismatch(value, .int16) }
        self = v
    }
}

extension UInt16: DBusCodable {
    public static var dbusType: DBusType { .uint16 }
    public init(from reader: inout MessageReader) throws(DBusError) { self = try reader.readBasic(TypeCode.uint16, "q").u16 }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        var v = DBusBasicValue(); v.u16 = self; try writer.writeBasic(.uint16, v)
    }
    public init(value: Value) throws(DBusError) {
        guard case .uint16(let v) = value else { throw typeMismatch(value, .uint16) }
        self = v
    }
}

extension Int32: DBusCodable {
    public static var dbusType: DBusType { .int32 }
    public init(from reader: inout MessageReader) throws(DBusError) { self = try reader.readBasic(TypeCode.int32, "i").i32 }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        var v = DBusBasicValue(); v.i32 = self; try writer.writeBasic(.int32, v)
    }
    public init(value: Value) throws(DBusError) {
        guard case .int32(let v) = value else { throw typeMismatch(value, .int32) }
        self = v
    }
}

extension UInt32: DBusCodable {
    public static var dbusType: DBusType { .uint32 }
    public init(from reader: inout MessageReader) throws(DBusError) { self = try reader.readBasic(TypeCode.uint32, "u").u32 }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        var v = DBusBasicValue(); v.u32 = self; try writer.writeBasic(.uint32, v)
    }
    public init(value: Value) throws(DBusError) {
        guard case .uint32(let v) = value else { throw typeMismatch(value, .uint32) }
        self = v
    }
}

extension Int64: DBusCodable {
    public static var dbusType: DBusType { .int64 }
    public init(from reader: inout MessageReader) throws(DBusError) { self = Int64(try reader.readBasic(TypeCode.int64, "x").i64) }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        var v = DBusBasicValue(); v.i64 = dbus_int64_t(self); try writer.writeBasic(.int64, v)
    }
    public init(value: Value) throws(DBusError) {
        guard case .int64(let v) = value else { throw typeMismatch(value, .int64) }
        self = v
    }
}

extension UInt64: DBusCodable {
    public static var dbusType: DBusType { .uint64 }
    public init(from reader: inout MessageReader) throws(DBusError) { self = UInt64(try reader.readBasic(TypeCode.uint64, "t").u64) }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        var v = DBusBasicValue(); v.u64 = dbus_uint64_t(self); try writer.writeBasic(.uint64, v)
    }
    public init(value: Value) throws(DBusError) {
        guard case .uint64(let v) = value else { throw typeMismatch(value, .uint64) }
        self = v
    }
}

extension Double: DBusCodable {
    public static var dbusType: DBusType { .double }
    public init(from reader: inout MessageReader) throws(DBusError) { self = try reader.readBasic(TypeCode.double, "d").dbl }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        var v = DBusBasicValue(); v.dbl = self; try writer.writeBasic(.double, v)
    }
    public init(value: Value) throws(DBusError) {
        guard case .double(let v) = value else { throw typeMismatch(value, .double) }
        self = v
    }
}

extension String: DBusCodable {
    public static var dbusType: DBusType { .string }
    public init(from reader: inout MessageReader) throws(DBusError) { self = try reader.readString(TypeCode.string, "s") }
    public func encode(to writer: inout MessageWriter) throws(DBusError) { try writer.writeString(.string, self) }
    public init(value: Value) throws(DBusError) {
        guard case .string(let v) = value else { throw typeMismatch(value, .string) }
        self = v
    }
}

extension ObjectPath: DBusCodable {
    public static var dbusType: DBusType { .objectPath }
    public init(from reader: inout MessageReader) throws(DBusError) {
        self.init(trusted: try reader.readString(TypeCode.objectPath, "o"))
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) { try writer.writeString(.objectPath, rawValue) }
    public init(value: Value) throws(DBusError) {
        guard case .objectPath(let v) = value else { throw typeMismatch(value, .objectPath) }
        self = v
    }
}

extension Signature: DBusCodable {
    public static var dbusType: DBusType { .signature }
    public init(from reader: inout MessageReader) throws(DBusError) {
        self.init(trusted: try reader.readString(TypeCode.signature, "g"))
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) { try writer.writeString(.signature, rawValue) }
    public init(value: Value) throws(DBusError) {
        guard case .signature(let v) = value else { throw typeMismatch(value, .signature) }
        self = v
    }
}

// MARK: - Variant, arrays, dictionaries

/// `Value` as an argument type is a variant: it carries its own type.
extension Value: DBusCodable {
    public static var dbusType: DBusType { .variant }
    public init(from reader: inout MessageReader) throws(DBusError) {
        self = try reader.readVariant { inner throws(DBusError) in try inner.readValue() }
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try validate()
        try writer.writeVariant(of: type) { inner throws(DBusError) in try inner.writeValue(self) }
    }
    public init(value: Value) throws(DBusError) {
        guard case .variant(let inner) = value else { throw typeMismatch(value, .variant) }
        self = inner
    }
}

extension Array: DBusTyped where Element: DBusTyped {
    public static var dbusType: DBusType { .array(Element.dbusType) }
}

extension Array: DBusEncodable where Element: DBusEncodable {
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.writeArray(of: Element.dbusType) { inner throws(DBusError) in
            for element in self { try element.encode(to: &inner) }
        }
    }
}

extension Array: DBusDecodable where Element: DBusDecodable {
    @inlinable
    public init(from reader: inout MessageReader) throws(DBusError) {
        if Element.self == UInt8.self {
            self = try reader.readByteArray() as! [Element]
            return
        }
        var elements: [Element] = []
        try reader.readArray(of: Element.dbusType) { inner throws(DBusError) in elements.append(try Element(from: &inner)) }
        self = elements
    }
    public init(value: Value) throws(DBusError) {
        guard case .array(let element, let items) = value, element == Element.dbusType else {
            throw typeMismatch(value, .array(Element.dbusType))
        }
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for item in items { elements.append(try Element(value: item)) }
        self = elements
    }
}

extension Dictionary: DBusTyped where Key: DBusTyped, Value: DBusTyped {
    public static var dbusType: DBusType { .dictionary(key: Key.dbusType, value: Value.dbusType) }
}

extension Dictionary: DBusEncodable where Key: DBusEncodable, Value: DBusEncodable {
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.writeArray(of: Self.dbusType) { entries throws(DBusError) in
            for (key, value) in self {
                try entries.writeDictionaryEntry { entry throws(DBusError) in
                    try key.encode(to: &entry)
                    try value.encode(to: &entry)
                }
            }
        }
    }
}

extension Dictionary: DBusDecodable where Key: DBusDecodable, Value: DBusDecodable {
    @inlinable
    public init(from reader: inout MessageReader) throws(DBusError) {
        var result: [Key: Value] = [:]
        try reader.readDictionary(keyType: Key.self, valueType: Value.dbusType) { key, entry throws(DBusError) in
            result[key] = try Value(from: &entry)
        }
        self = result
    }
    public init(value: DBus.Value) throws(DBusError) {
        guard case .dictionary(let keyType, let valueType, let entries) = value,
            keyType == Key.dbusType, valueType == Value.dbusType
        else { throw typeMismatch(value, Self.dbusType) }
        var result: [Key: Value] = [:]
        result.reserveCapacity(entries.count)
        for (key, item) in entries { result[try Key(value: key)] = try Value(value: item) }
        self = result
    }
}

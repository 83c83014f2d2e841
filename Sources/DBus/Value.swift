/// Any D-Bus value, typed: the dynamic counterpart of `DBusType`.
///
/// Containers carry their element types so that empty arrays and dictionaries still
/// have a signature. As a Swift argument type, `Value` itself stands for a variant (`v`).
public enum Value: Hashable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    /// A variant: a value that carries its own type.
    indirect case variant(Value)
    /// An array whose elements all have type `element`.
    case array(element: DBusType, [Value])
    /// A dictionary (`a{KV}`); keys are basic values.
    case dictionary(key: DBusType, value: DBusType, [Value: Value])
    /// A structure of one or more fields.
    case structure([Value])

    /// The type of this value.
    public var type: DBusType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .variant: .variant
        case .array(let element, _): .array(element)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): .structure(fields.map(\.type))
        }
    }

    /// Checks that containers hold what their types say, so marshalling cannot fail half-way.
    public func validate() throws(DBusError) {
        switch self {
        case .string(let text):
            if text.utf8.contains(0) { throw .invalidArguments("a D-Bus string cannot contain NUL") }
        case .variant(let inner):
            try inner.validate()
        case .array(let element, let items):
            if case .dictionary = element {
                // `a{..}` is spelled `.dictionary`, never an array of entries.
                throw .invalidArguments("an array of dictionary entries must be a .dictionary value")
            }
            for item in items {
                guard item.type == element else {
                    throw .invalidArguments("array of \(element) holds a \(item.type)")
                }
                try item.validate()
            }
        case .dictionary(let keyType, let valueType, let entries):
            guard keyType.isBasic else { throw .invalidArguments("dictionary key type \(keyType) is not basic") }
            for (key, value) in entries {
                guard key.type == keyType, value.type == valueType else {
                    throw .invalidArguments("dictionary a{\(keyType)\(valueType)} holds {\(key.type)\(value.type)}")
                }
                try key.validate()
                try value.validate()
            }
        case .structure(let fields):
            if fields.isEmpty { throw .invalidArguments("a structure needs at least one field") }
            for field in fields { try field.validate() }
        default:
            break
        }
    }
}

extension Value {
    /// The value inside a variant, or the value itself.
    public var unwrapped: Value {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The text of a string, object path or signature.
    public var string: String? {
        switch unwrapped {
        case .string(let text): text
        case .objectPath(let path): path.rawValue
        case .signature(let signature): signature.rawValue
        default: nil
        }
    }

    /// Any integer type, widened; nil for other types and for unsigned 64-bit values beyond `Int64`.
    public var integer: Int64? {
        switch unwrapped {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): Int64(exactly: v)
        default: nil
        }
    }

    /// The boolean, if this is one.
    public var bool: Bool? {
        if case .boolean(let v) = unwrapped { return v }
        return nil
    }

    /// The elements of an array, or the fields of a structure.
    public var elements: [Value]? {
        switch unwrapped {
        case .array(_, let items): items
        case .structure(let fields): fields
        default: nil
        }
    }

    /// Converts to a typed Swift value, or nil if the types differ.
    public func decode<T: DBusDecodable>(as type: T.Type = T.self) -> T? {
        try? T(value: unwrapped)
    }
}

extension Value: CustomStringConvertible {
    public var description: String {
        switch self {
        case .byte(let v): "\(v)"
        case .boolean(let v): "\(v)"
        case .int16(let v): "\(v)"
        case .uint16(let v): "\(v)"
        case .int32(let v): "\(v)"
        case .uint32(let v): "\(v)"
        case .int64(let v): "\(v)"
        case .uint64(let v): "\(v)"
        case .double(let v): "\(v)"
        case .string(let v): "\"\(v)\""
        case .objectPath(let v): v.rawValue
        case .signature(let v): "g\"\(v.rawValue)\""
        case .variant(let v): "<\(v)>"
        case .array(_, let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(_, _, let entries):
            "{" + entries.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", ") + "}"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        }
    }
}

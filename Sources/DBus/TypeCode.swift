/// libdbus type codes (the C macros are casts Swift cannot import).
enum TypeCode {
    static let invalid: Int32 = 0
    static let byte = code("y"), boolean = code("b"), int16 = code("n"), uint16 = code("q")
    static let int32 = code("i"), uint32 = code("u"), int64 = code("x"), uint64 = code("t")
    static let double = code("d"), string = code("s"), objectPath = code("o"), signature = code("g")
    static let unixFD = code("h"), variant = code("v"), array = code("a")
    static let structure = code("r"), dictEntry = code("e")

    private static func code(_ c: Unicode.Scalar) -> Int32 { Int32(c.value) }

    /// The basic type for a code, or nil for containers and unknown codes.
    static func basicType(_ code: Int32) -> DBusType? {
        switch code {
        case byte: .byte
        case boolean: .boolean
        case int16: .int16
        case uint16: .uint16
        case int32: .int32
        case uint32: .uint32
        case int64: .int64
        case uint64: .uint64
        case double: .double
        case string: .string
        case objectPath: .objectPath
        case signature: .signature
        default: nil
        }
    }
}

extension DBusType {
    /// The libdbus code of this type's first character (`a` for arrays and dictionaries).
    var code: Int32 {
        switch self {
        case .byte: TypeCode.byte
        case .boolean: TypeCode.boolean
        case .int16: TypeCode.int16
        case .uint16: TypeCode.uint16
        case .int32: TypeCode.int32
        case .uint32: TypeCode.uint32
        case .int64: TypeCode.int64
        case .uint64: TypeCode.uint64
        case .double: TypeCode.double
        case .string: TypeCode.string
        case .objectPath: TypeCode.objectPath
        case .signature: TypeCode.signature
        case .variant: TypeCode.variant
        case .array, .dictionary: TypeCode.array
        case .structure: TypeCode.structure
        }
    }
}

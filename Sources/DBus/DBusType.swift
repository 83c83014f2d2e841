/// One complete D-Bus type: the type system's grammar as a Swift value.
public indirect enum DBusType: Hashable, Sendable, CustomStringConvertible {
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double
    case string, objectPath, signature
    case variant
    /// `aT`, an array of `T` (not a dictionary).
    case array(DBusType)
    /// `a{KV}`; `K` must be a basic type.
    case dictionary(key: DBusType, value: DBusType)
    /// `(T1T2...)`, at least one field.
    case structure([DBusType])

    /// The signature text of this type, such as `a{sv}`.
    public var signature: String {
        var text = ""
        appendSignature(to: &text)
        return text
    }

    public var description: String { signature }

    /// Whether this is a basic type (may be a dictionary key).
    public var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }

    func appendSignature(to text: inout String) {
        switch self {
        case .byte: text += "y"
        case .boolean: text += "b"
        case .int16: text += "n"
        case .uint16: text += "q"
        case .int32: text += "i"
        case .uint32: text += "u"
        case .int64: text += "x"
        case .uint64: text += "t"
        case .double: text += "d"
        case .string: text += "s"
        case .objectPath: text += "o"
        case .signature: text += "g"
        case .variant: text += "v"
        case .array(let element):
            text += "a"
            element.appendSignature(to: &text)
        case .dictionary(let key, let value):
            text += "a{"
            key.appendSignature(to: &text)
            value.appendSignature(to: &text)
            text += "}"
        case .structure(let fields):
            text += "("
            for field in fields { field.appendSignature(to: &text) }
            text += ")"
        }
    }

    /// Parses exactly one complete type.
    public init(parsing signature: String) throws(DBusError) {
        let types = try DBusType.parseList(signature)
        guard types.count == 1 else {
            throw .invalidArguments("\"\(signature)\" is not a single complete type")
        }
        self = types[0]
    }

    /// Parses a signature holding any number of complete types.
    static func parseList(_ signature: String) throws(DBusError) -> [DBusType] {
        var parser = Parser(bytes: Array(signature.utf8))
        var types: [DBusType] = []
        while !parser.atEnd { types.append(try parser.parseOne(depth: 0)) }
        return types
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var atEnd: Bool { index >= bytes.count }

        // The specification caps nesting at 32 arrays plus 32 structs; 64 overall is enough.
        static let maxDepth = 64

        mutating func parseOne(depth: Int) throws(DBusError) -> DBusType {
            let text = String(decoding: bytes, as: UTF8.self)
            guard depth < Parser.maxDepth else { throw .invalidArguments("signature \"\(text)\" nests too deeply") }
            guard !atEnd else { throw .invalidArguments("signature \"\(text)\" ends early") }
            let code = bytes[index]
            index += 1
            switch code {
            case UInt8(ascii: "y"): return .byte
            case UInt8(ascii: "b"): return .boolean
            case UInt8(ascii: "n"): return .int16
            case UInt8(ascii: "q"): return .uint16
            case UInt8(ascii: "i"): return .int32
            case UInt8(ascii: "u"): return .uint32
            case UInt8(ascii: "x"): return .int64
            case UInt8(ascii: "t"): return .uint64
            case UInt8(ascii: "d"): return .double
            case UInt8(ascii: "s"): return .string
            case UInt8(ascii: "o"): return .objectPath
            case UInt8(ascii: "g"): return .signature
            case UInt8(ascii: "v"): return .variant
            case UInt8(ascii: "a"):
                if !atEnd, bytes[index] == UInt8(ascii: "{") {
                    index += 1
                    let key = try parseOne(depth: depth + 1)
                    guard key.isBasic else { throw .invalidArguments("signature \"\(text)\": dictionary key must be basic") }
                    let value = try parseOne(depth: depth + 1)
                    guard !atEnd, bytes[index] == UInt8(ascii: "}") else {
                        throw .invalidArguments("signature \"\(text)\": dictionary entry needs exactly two types")
                    }
                    index += 1
                    return .dictionary(key: key, value: value)
                }
                return .array(try parseOne(depth: depth + 1))
            case UInt8(ascii: "("):
                var fields: [DBusType] = []
                while !atEnd, bytes[index] != UInt8(ascii: ")") { fields.append(try parseOne(depth: depth + 1)) }
                guard !atEnd, !fields.isEmpty else { throw .invalidArguments("signature \"\(text)\": bad structure") }
                index += 1
                return .structure(fields)
            default:
                throw .invalidArguments("signature \"\(text)\": unsupported type code \(Character(Unicode.Scalar(code)))")
            }
        }
    }
}

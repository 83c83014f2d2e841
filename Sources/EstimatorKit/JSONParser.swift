/// Why some bytes are not one JSON value.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Byte offset where parsing stopped.
    public let offset: Int
    public let reason: String
    public var description: String { "\(reason) at byte \(offset)" }
}

extension JSONValue {
    /// Deepest nesting accepted; control messages and the config are flat, and a bound keeps
    /// hostile input from exhausting the stack.
    public static let maximumDepth = 8

    /// Parses exactly one JSON value (RFC 8259) from `bytes`; surrounding
    /// whitespace is allowed, anything else after the value is an error.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = Parser(bytes: Array(bytes))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }
}

private struct Parser {
    let bytes: [UInt8]
    var index = 0

    func error(_ reason: String) -> JSONParseError { JSONParseError(offset: index, reason: reason) }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character")
        }
    }

    mutating func literal(_ word: String) throws(JSONParseError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("invalid literal") }
            index += 1
        }
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw error("nested too deeply") }
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let keyOffset = index
            let key = try string()
            guard !members.contains(where: { $0.key == key }) else {
                throw JSONParseError(offset: keyOffset, reason: "repeated member name")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key, try value(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw error("nested too deeply") }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func number() throws(JSONParseError) -> String {
        let start = index
        func digits(_ p: inout Parser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
            return p.index - s
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        let intDigits = digits(&self)
        guard intDigits > 0 else { throw error("expected a digit") }
        guard intDigits == 1 || bytes[intStart] != UInt8(ascii: "0") else { throw error("leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("expected a digit") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("expected a digit") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func string() throws(JSONParseError) -> String {
        index += 1
        var unescaped: [UInt8] = []  // the text up to the last escape, once there is one
        var hasEscape = false
        var run = index  // start of the current run of plain bytes
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let tail = try plain(from: run)
                index += 1
                guard hasEscape else { return tail }
                unescaped.append(contentsOf: tail.utf8)
                return String(decoding: unescaped, as: UTF8.self)
            case UInt8(ascii: "\\"):
                unescaped.append(contentsOf: try plain(from: run).utf8)
                index += 1
                unescaped.append(contentsOf: String(try escape()).utf8)
                hasEscape = true
                run = index
            case ..<0x20: throw error("control character in string")
            default: index += 1
            }
        }
        throw error("unterminated string")
    }

    /// The bytes from `start` up to the current index as text. Invalid
    /// UTF-8 is an error, not a replacement: the bytes must decode as they
    /// are.
    func plain(from start: Int) throws(JSONParseError) -> String {
        let run = bytes[start..<index]
        let text = String(decoding: run, as: UTF8.self)
        guard text.utf8.elementsEqual(run) else { throw JSONParseError(offset: start, reason: "invalid UTF-8") }
        return text
    }

    mutating func escape() throws(JSONParseError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate") }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate") }
            return scalar
        default: throw error("invalid escape")
        }
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("unterminated escape") }
            let b = bytes[index] | 0x20
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}

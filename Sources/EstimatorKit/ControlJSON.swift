/// A JSON value as the control socket speaks it: small, flat messages.
///
/// Numbers keep their text so an integer field can be checked exactly
/// (`1` is a channel, `1.0` and `1e0` are not).
public enum ControlJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([ControlJSON])
    /// Members in the order they were written; a repeated key is an error.
    case object([(key: String, value: ControlJSON)])

    public static func == (lhs: ControlJSON, rhs: ControlJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The member named `key` of an object; `nil` for anything else.
    public subscript(key: String) -> ControlJSON? {
        guard case let .object(members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    /// The value as an exact integer, if it is a number written without a
    /// fraction or exponent that fits an `Int`.
    public var integer: Int? {
        guard case let .number(text) = self else { return nil }
        return Int(text)
    }

    public var string: String? {
        guard case let .string(text) = self else { return nil }
        return text
    }

    public var bool: Bool? {
        guard case let .bool(value) = self else { return nil }
        return value
    }
}

/// Why some bytes are not one JSON value.
public struct ControlJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Byte offset where parsing stopped.
    public let offset: Int
    public let reason: String
    public var description: String { "\(reason) at byte \(offset)" }
}

extension ControlJSON {
    /// Deepest nesting accepted; control messages are flat, and a bound keeps
    /// hostile input from exhausting the stack.
    public static let maximumDepth = 8

    /// Parses exactly one JSON value (RFC 8259) from `bytes`; surrounding
    /// whitespace is allowed, anything else after the value is an error.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ControlJSONError) -> ControlJSON {
        var parser = Parser(bytes: Array(bytes))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    /// The value as compact JSON text on one line (never a raw newline or
    /// control character, so it can be framed by `\n`).
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .number(text): out += text
        case let .string(text): Self.writeString(text, to: &out)
        case let .array(items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // Other C0 controls, DEL and the line separators some readers treat as newlines.
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                let hex = Array("0123456789abcdef")
                let v = Int(scalar.value)
                out += "\\u" + String([hex[v >> 12 & 0xF], hex[v >> 8 & 0xF], hex[v >> 4 & 0xF], hex[v & 0xF]])
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

private struct Parser {
    let bytes: [UInt8]
    var index = 0

    func error(_ reason: String) -> ControlJSONError { ControlJSONError(offset: index, reason: reason) }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(ControlJSONError) -> ControlJSON {
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

    mutating func literal(_ word: String) throws(ControlJSONError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("invalid literal") }
            index += 1
        }
    }

    mutating func object(depth: Int) throws(ControlJSONError) -> ControlJSON {
        guard depth <= ControlJSON.maximumDepth else { throw error("nested too deeply") }
        index += 1
        var members: [(key: String, value: ControlJSON)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let keyOffset = index
            let key = try string()
            guard !members.contains(where: { $0.key == key }) else {
                throw ControlJSONError(offset: keyOffset, reason: "repeated member name")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members.append((key, try value(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(ControlJSONError) -> ControlJSON {
        guard depth <= ControlJSON.maximumDepth else { throw error("nested too deeply") }
        index += 1
        var items: [ControlJSON] = []
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

    mutating func number() throws(ControlJSONError) -> String {
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

    mutating func string() throws(ControlJSONError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index  // start of the current run of plain bytes
        func flush(_ p: Parser, _ upTo: Int, into scalars: inout String.UnicodeScalarView) throws(ControlJSONError) {
            guard run < upTo else { return }
            // Validating decode: invalid UTF-8 is an error, not a replacement.
            guard let text = String(validating: p.bytes[run..<upTo], as: UTF8.self) else {
                throw ControlJSONError(offset: run, reason: "invalid UTF-8")
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(self, index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in string") }
            if byte == UInt8(ascii: "\\") {
                try flush(self, index, into: &scalars)
                index += 1
                scalars.append(try escape())
                run = index
                continue
            }
            index += 1
        }
        throw error("unterminated string")
    }

    mutating func escape() throws(ControlJSONError) -> Unicode.Scalar {
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

    mutating func hex4() throws(ControlJSONError) -> UInt32 {
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

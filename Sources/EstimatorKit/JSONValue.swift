/// A JSON value: what commands print (`--json`), what the control socket
/// and the config file speak.
///
/// Object members keep the order given, so every line a command prints has
/// its keys in a fixed, documented order. Numbers keep their text, so a
/// parsed integer field can be checked exactly (`1` is a channel, `1.0` and
/// `1e0` are not).
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number as JSON text (`-3`, `0.5`, `1e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in the order written; the parser rejects a repeated key.
    case object([JSONMember])

    public static func int(_ i: Int) -> JSONValue { .number(String(i)) }
    /// Swift's shortest round-trip form; NaN and infinities as `null`.
    public static func double(_ d: Double) -> JSONValue { d.isFinite ? .number(d.description) : .null }
    /// A string, or `null` when there is none.
    public static func string(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }

    /// The member named `key` of an object; `nil` for anything else.
    public subscript(key: String) -> JSONValue? {
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

    /// Compact JSON text on one line: no spaces, never a raw newline or
    /// control character, so it can be framed by `\n`.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let text): out += text
        case .string(let s): JSONText.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                JSONText.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }
}

/// One `"key": value` of a JSON object.
public struct JSONMember: Sendable, Equatable {
    public let key: String
    public let value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object literal keeps its members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { JSONMember($0.0, $0.1) })
    }
}


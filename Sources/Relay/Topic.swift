/// MQTT topic names as this module builds and checks them.
public enum Topic {
    /// Longest topic accepted from the broker; anything longer is dropped
    /// before it is looked at.
    public static let maximumLength = 256

    /// Whether `level` can be one level of a topic we publish: 1 to 64
    /// bytes, no separator, no wildcard, no control characters.
    public static func isValidLevel(_ level: String) -> Bool {
        let bytes = level.utf8
        return (1...64).contains(bytes.count)
            && bytes.allSatisfy { $0 >= 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "#") }
    }

    /// The levels of a received topic, or nil when it is too long or not UTF-8.
    public static func levels(_ bytes: [UInt8]) -> [Substring]? {
        guard bytes.count <= maximumLength, let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return text.split(separator: "/", omittingEmptySubsequences: false)
    }
}

/// JSON string escaping.
public enum JSONText {
    /// `s` as a quoted JSON string. Besides what JSON requires (`"`, `\`,
    /// U+0000–U+001F), DEL, C1 controls, U+2028/U+2029 and bidi
    /// overrides/isolates are written as `\uXXXX`: the text stays valid
    /// JavaScript and no terminal showing it can act on its characters.
    public static func quoted(_ s: String) -> String {
        var out = ""
        writeString(s, to: &out)
        return out
    }

    static func writeString(_ s: String, to out: inout String) {
        // Printable ASCII but the quote and the backslash goes as it is.
        if s.utf8.allSatisfy({ 0x20..<0x7F ~= $0 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            default:
                if TerminalText.isRemoved(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

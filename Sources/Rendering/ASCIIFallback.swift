import EstimatorKit

/// Text for a terminal whose locale is not UTF-8 (`LANG=C`, a serial
/// console): the table's own characters as their nearest ASCII, and every
/// other character, names included, as `?`.
public enum ASCIIFallback {
    /// Whether the locale's character set is something other than UTF-8:
    /// the first of `LC_ALL`, `LC_CTYPE` and `LANG` that is set decides,
    /// and none set is the C locale, which is ASCII.
    public static func isNeeded(environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        let set = locale.lowercased()
        return !(set.contains("utf-8") || set.contains("utf8"))
    }

    /// `text` in ASCII: known symbols spelled out, any other non-ASCII
    /// character a `?`.
    public static func fold(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = ""
        for character in text {
            if character.isASCII {
                out.append(character)
            } else {
                out += replacements[character] ?? "?"
            }
        }
        return out
    }

    private static let replacements: [Character: String] = [
        "·": ".", "✓": "*", "━": "=", "╸": "-", "…": "~", "≈": "~", "–": "-", "—": "-",
        "½": "1/2", "☕": "coffee", "☕️": "coffee", "✔": "ok", "✘": "!!",
    ]
}

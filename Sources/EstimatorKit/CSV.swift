/// Comma-separated values (RFC 4180) that are safe to open in a spreadsheet.
///
/// Names and titles come from the air and from people, so a field may hold a
/// comma, a quote or a line break (quoted, quotes doubled), or start like a
/// formula: a spreadsheet would run `=HYPERLINK(…)` or `@SUM(…)` from a cell,
/// so such a field gets a leading apostrophe and is shown as text.
public enum CSV {
    /// The line ending RFC 4180 gives for records.
    public static let lineEnding = "\r\n"

    /// `fields` as one record, without the line ending.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",")
    }

    /// One field: neutralised if it starts like a formula, then quoted if
    /// it holds a comma, quote, CR or LF.
    public static func field(_ text: String) -> String {
        // Tab and CR also start formulas in some spreadsheets (OWASP's list).
        let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
        let safe = text.unicodeScalars.first.map(formulaStarts.contains) == true ? "'" + text : text
        guard safe.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" })
        else { return safe }
        // By scalar: a quote followed by a combining mark is one Character.
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in safe.unicodeScalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append("\"") }
        }
        quoted.append("\"")
        return String(quoted)
    }
}

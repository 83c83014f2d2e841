import EstimatorKit

/// A peer's name as every view shows it: sanitised, `…` after a name that
/// arrived cut (an iPhone cuts the app's name to 8 bytes), and `(app)` after
/// an app user's, whose name may be cut and who sees no rounds.
enum ShownName {
    static let appMark = " (app)"

    /// `name` (as received) ready for a terminal, with its marks.
    static func text(_ name: String, isNameCut: Bool, isApp: Bool) -> String {
        TextFitting.standalone(TerminalText.sanitize(name)) + (isNameCut ? "…" : "") + (isApp ? appMark : "")
    }
}

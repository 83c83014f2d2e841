import EstimatorKit

/// A person's name as every view shows it (rows, footers, change lines, the
/// session's replies): sanitised, `…` after a name that arrived cut (an
/// iPhone cuts the app's name to 8 bytes), and `(app)` after an app user's,
/// whose name may be cut and who sees no rounds. An app user whose name has
/// no whole character left is `… (app)`, never an empty name.
public enum ShownName {
    static let appMark = " (app)"

    /// `name` (as received) ready for a terminal, with its marks.
    public static func text(_ name: String, isNameCut: Bool, isApp: Bool) -> String {
        TextFitting.standalone(TerminalText.sanitize(name)) + (isNameCut ? "…" : "") + (isApp ? appMark : "")
    }

    /// The person of a tally's entry.
    public static func text(_ entry: Tally.Entry) -> String {
        text(entry.name, isNameCut: entry.isNameCut, isApp: entry.isApp)
    }

    /// The person alone at one end of the votes.
    public static func text(_ explainer: Stats.Explainer) -> String {
        text(explainer.name, isNameCut: explainer.isNameCut, isApp: explainer.isApp)
    }
}

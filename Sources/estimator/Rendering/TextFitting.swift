import EstimatorKit

/// Fitting sanitised text into terminal columns by display width, so Hangul,
/// CJK and emoji (two columns each) keep a table's columns straight.
enum TextFitting {
    /// `text` cut to at most `width` columns, ending in `…` when cut. Cuts
    /// fall between grapheme clusters, so no syllable or emoji is split.
    static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if TerminalText.displayWidth(text) <= width { return text }
        var kept = ""
        var used = 0
        for cluster in text {
            let columns = TerminalText.displayWidth(String(cluster))
            if used + columns > width - 1 { break }
            kept.append(cluster)
            used += columns
        }
        return kept + "…"
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    static func fit(_ text: String, toWidth width: Int) -> String {
        let cut = truncate(text, toWidth: width)
        return pad(cut, width: TerminalText.displayWidth(cut), to: width)
    }

    /// `text`, already known to be `width` columns wide, padded to `target`.
    static func pad(_ text: String, width: Int, to target: Int) -> String {
        width >= target ? text : text + String(repeating: " ", count: target - width)
    }
}

import EstimatorKit

/// Fitting sanitised text into terminal columns by display width, so Hangul,
/// CJK and emoji (two columns each) keep a table's columns straight.
package enum TextFitting {
    /// `text` cut to at most `width` columns, ending in `…` when cut. Cuts
    /// fall between grapheme clusters, so no syllable or emoji is split.
    package static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        // One pass: remember where the text would be cut for the ellipsis,
        // and return it whole if it turns out to fit.
        var used = 0
        var cut = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            used += TerminalText.displayWidth(String(text[index..<next]))
            if used > width { return String(text[..<cut]) + "…" }
            if used <= width - 1 { cut = next }
            index = next
        }
        return text
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    package static func fit(_ text: String, toWidth width: Int) -> String {
        let cut = truncate(text, toWidth: width)
        return pad(cut, width: TerminalText.displayWidth(cut), to: width)
    }

    /// `text` on at most `lines` lines of at most `width` columns, broken
    /// between words; a word wider than a line, and the last line when the
    /// text goes on, are cut with `…`.
    static func wrap(_ text: String, toWidth width: Int, lines: Int) -> [String] {
        guard width > 0, lines > 0 else { return [] }
        let words = text.split(separator: " ").map(String.init)
        // Greedy, each line with the index of its first word.
        var wrapped: [(text: String, first: Int)] = []
        for (index, word) in words.enumerated() {
            if let last = wrapped.last, TerminalText.displayWidth(last.text + " " + word) <= width {
                wrapped[wrapped.count - 1].text += " " + word
            } else {
                wrapped.append((truncate(word, toWidth: width), index))
            }
        }
        guard wrapped.count > lines else { return wrapped.map(\.text) }
        let rest = words[wrapped[lines - 1].first...].joined(separator: " ")
        return wrapped.prefix(lines - 1).map(\.text) + [truncate(rest, toWidth: width)]
    }

    /// `text`, `width` columns wide, in the middle of `target` columns.
    static func center(_ text: String, width: Int, in target: Int) -> String {
        let left = max(target - width, 0) / 2
        return String(repeating: " ", count: left) + pad(text, width: width, to: target - left)
    }

    /// `text`, already known to be `width` columns wide, padded to `target`.
    static func pad(_ text: String, width: Int, to target: Int) -> String {
        width >= target ? text : text + String(repeating: " ", count: target - width)
    }

    /// `text` without scalars at either end that would fuse with a
    /// neighbouring cell: a leading mark or emoji modifier joins the space
    /// before it, a trailing prepended mark the space after, and the pair
    /// would be measured, and drawn, as one cluster. Alone they mean nothing.
    package static func standalone(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, !first.isASCII, (" " + String(scalars)).first != " " {
            scalars.removeFirst()
        }
        while let last = scalars.last, !last.isASCII, (String(scalars) + " ").last != " " {
            scalars.removeLast()
        }
        return String(scalars)
    }
}

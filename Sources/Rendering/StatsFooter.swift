import EstimatorKit

/// The footer under a channel's rows: before the reveal, how the vote
/// stands (`3 of 5 voted · waiting for Alice, Bob`); after it, the agreed
/// estimate when it is not the consensus and what the round adds up to
/// (`agreed 8 · median 5 · mean 6.5 ≈ 8 · 8: 전수열 explains · 3: Bob
/// explains · ☕ 1`, or `median M · S to XL` for T-shirt sizes), on as many
/// lines as the terminal's width needs; and how many are heard nearby whom
/// the signal floor keeps out of the room (`2 more nearby, out of the room`).
package enum StatsFooter {
    /// The footer as lines of at most `width` cells, each starting with a
    /// space like the rows: the parts are packed greedily, a part that is
    /// wider than a whole line is cut with ….
    package static func lines(_ section: TableSection, width: Int, ascii: Bool = false) -> [String] {
        lines(parts(section), width: width, ascii: ascii)
    }

    /// `parts` packed into lines as the footer packs its own (the board's
    /// result line).
    static func lines(_ parts: [String], width: Int, ascii: Bool = false) -> [String] {
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        let separator = ascii ? " - " : Self.separator
        for part in parts.map({ ascii ? ASCIIFallback.fold($0) : $0 }) {
            let partWidth = TerminalText.displayWidth(part)
            if !current.isEmpty, currentWidth + separator.count + partWidth <= width {
                current += separator + part
                currentWidth += separator.count + partWidth
                continue
            }
            if !current.isEmpty { lines.append(current) }
            current = TextFitting.truncate(" " + part, toWidth: width)
            currentWidth = TerminalText.displayWidth(current)
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    private static let separator = " · "

    /// The footer's parts; names in them are shown as `ShownName` does.
    package static func parts(_ section: TableSection) -> [String] {
        let out = section.outOfRoom
        return votes(section) + (out > 0 ? ["\(out) more nearby, out of the room"] : [])
    }

    /// How the vote stands, or what it adds up to once revealed.
    private static func votes(_ section: TableSection) -> [String] {
        guard section.voters > 0 || section.isRevealed else { return ["nobody heard yet"] }
        guard section.isRevealed else {
            var parts = ["\(section.voted) of \(section.voters) voted"]
            if !section.waitingFor.isEmpty { parts.append("waiting for \(list(section.waitingFor.map(ShownName.text)))") }
            return parts
        }
        var parts = parts(section.stats)
        // A consensus says the agreed card already.
        if let agreed = section.agreed, !section.stats.isConsensus
            || agreed.numericValue.map({ $0 != section.stats.median }) ?? (agreed != section.stats.medianSize) {
            parts.insert("agreed \(agreed)", at: 0)
        }
        if !section.waitingFor.isEmpty { parts.append("revealed without \(list(section.waitingFor.map(ShownName.text)))") }
        return parts
    }

    /// What revealed votes add up to: numbers (`median 5 · mean 6.5 ≈ 8`),
    /// sizes (`median M · S to XL`), or a mixed room said to be one.
    package static func parts(_ stats: Stats) -> [String] {
        var parts: [String] = []
        if stats.isMixed {
            let counted = "\(stats.numericVotes) \(stats.numericVotes == 1 ? "number" : "numbers") and "
                + "\(stats.sizeVotes) \(stats.sizeVotes == 1 ? "size" : "sizes")"
            parts.append("mixed decks: \(counted), not averaged")
        } else if stats.isConsensus, let agreed = stats.median.map(number) ?? stats.medianSize?.description {
            parts.append("consensus: \(agreed)")
        } else if stats.votes == 1, let card = stats.median.map(number) ?? stats.medianSize?.description {
            // One vote agrees with nobody: no consensus, no mean to round.
            parts.append("one vote: \(card)")
        } else if let median = stats.median, let mean = stats.mean {
            parts.append("median \(number(median))")
            let nearest = stats.nearest.map { $0.numericValue == mean ? "" : " ≈ \($0)" } ?? ""
            parts.append("mean \(number(mean))\(nearest)")
        } else if let size = stats.medianSize, let spread = stats.sizeSpread {
            parts.append("median \(size)")
            parts.append("\(Card.sizes[spread.lowerBound]) to \(Card.sizes[spread.upperBound])")
        } else {
            parts.append(stats.votes == 0 ? "no votes" : "no numbers voted")
        }
        if !stats.isConsensus {
            for end in [stats.highestAlone, stats.lowestAlone].compactMap({ $0 }) {
                parts.append("\(end.card): \(ShownName.text(end)) explains")
            }
        }
        if stats.questions > 0 { parts.append("? \(stats.questions)") }
        if stats.coffees > 0 { parts.append("☕ \(stats.coffees)") }
        return parts
    }

    /// `5`, `6.5`, `34.67`: at most two decimals, no trailing zeros.
    package static func number(_ value: Double) -> String {
        // Half away from zero, in integers (card values are small and finite).
        let scaled = value * 100
        let hundredths = Int(scaled < 0 ? scaled - 0.5 : scaled + 0.5)
        let whole = hundredths / 100
        let fraction = abs(hundredths % 100)
        switch fraction {
        case 0: return "\(whole)"
        case let f where f.isMultiple(of: 10): return "\(whole).\(f / 10)"
        case let f where f < 10: return "\(whole).0\(f)"
        default: return "\(whole).\(fraction)"
        }
    }

    /// `A`, `A and B`, `A, B and C`; past four names, `A, B, C and 5 others`.
    static func list(_ names: [String]) -> String {
        guard let last = names.last else { return "" }
        if names.count == 1 { return last }
        if names.count > 4 { return names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) others" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}

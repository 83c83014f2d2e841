import EstimatorKit

/// The footer under a channel's rows: what the round adds up to, e.g.
/// `median 5 · mean 6.5 · range 5–8 · no consensus: Alice and 전수열 explain · ☕ 1`,
/// on as many lines as the terminal's width needs.
enum StatsFooter {
    /// The footer as lines of at most `width` cells, each starting with a
    /// space like the rows: the parts are packed greedily, a part that is
    /// wider than a whole line is cut with ….
    static func lines(_ stats: Stats, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for part in parts(stats) {
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

    /// The footer's parts; names in them are sanitised here.
    static func parts(_ stats: Stats) -> [String] {
        var parts: [String] = []
        if stats.people == 0 {
            parts.append("nobody heard yet")
        } else if let median = stats.median, let mean = stats.mean, let range = stats.range {
            if stats.numericPicks == 1 {
                parts.append("median \(number(median))")
            } else if stats.isConsensus {
                parts.append("consensus: \(number(median))")
            } else {
                parts.append("median \(number(median))")
                parts.append("mean \(number(mean))")
                parts.append("range \(number(range.lowerBound))–\(number(range.upperBound))")
                let explainers = (stats.lowestHolders + stats.highestHolders).map { TextFitting.standalone(TerminalText.sanitize($0)) }
                parts.append("no consensus: \(list(explainers)) explain")
            }
        } else {
            parts.append("no numbers picked yet")
        }
        if stats.questions > 0 { parts.append("? \(stats.questions)") }
        if stats.coffees > 0 { parts.append("☕ \(stats.coffees)") }
        return parts
    }

    /// `5`, `6.5`, `34.67`: at most two decimals, no trailing zeros.
    static func number(_ value: Double) -> String {
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

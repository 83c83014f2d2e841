import EstimatorKit

/// Large letters for the board (`watch --board`), readable from the back of
/// a room: each glyph is five rows of cells, set or not, drawn with one
/// block character, and a `scale` multiplies it both ways. It has what a
/// card's face needs (digits, the sizes' letters, `?`, `/` for ½, a cup for
/// coffee, and hex digits for a byte that is no card) and `:` for the
/// timer's clock.
package enum BlockFont {
    /// Rows of a glyph at scale 1.
    static let height = 5

    /// The text a card's face shows in large letters: `13`, `XL`, `1/2`,
    /// `?`, a cup for coffee, and `?` with the hex byte for anything else.
    package static func face(of card: Card) -> String {
        switch card {
        case .half: return "1/2"
        case .coffee: return "☕"
        default:
            if let name = card.name, name.allSatisfy({ glyphs[$0] != nil }) { return name }
            return "?" + card.hex
        }
    }

    /// The width of `text` in cells at `scale`: glyphs are one scaled cell apart.
    package static func width(_ text: String, scale: Int) -> Int {
        let cells = text.compactMap { glyphs[$0]?.first?.count }
        return (cells.reduce(0, +) + max(cells.count - 1, 0)) * scale
    }

    /// `text` as `height * scale` rows, each `width(text, scale:)` cells
    /// wide, with `ink` for a set cell; characters without a glyph are left
    /// out.
    package static func rows(_ text: String, scale: Int, ink: Character) -> [String] {
        let drawn = text.compactMap { glyphs[$0] }
        var rows: [String] = []
        for row in 0..<height {
            let cells = drawn.map { $0[row] }.joined(separator: " ")
            var line = ""
            for cell in cells { line += String(repeating: cell == "#" ? ink : " ", count: scale) }
            rows += Array(repeating: line, count: scale)
        }
        return rows
    }

    /// `#` is a set cell.
    private static let glyphs: [Character: [String]] = [
        "0": ["###", "# #", "# #", "# #", "###"],
        "1": [" # ", "## ", " # ", " # ", "###"],
        "2": ["###", "  #", "###", "#  ", "###"],
        "3": ["###", "  #", "###", "  #", "###"],
        "4": ["# #", "# #", "###", "  #", "  #"],
        "5": ["###", "#  ", "###", "  #", "###"],
        "6": ["###", "#  ", "###", "# #", "###"],
        "7": ["###", "  #", "  #", "  #", "  #"],
        "8": ["###", "# #", "###", "# #", "###"],
        "9": ["###", "# #", "###", "  #", "###"],
        "A": [" # ", "# #", "###", "# #", "# #"],
        "B": ["## ", "# #", "## ", "# #", "## "],
        "C": ["###", "#  ", "#  ", "#  ", "###"],
        "D": ["## ", "# #", "# #", "# #", "## "],
        "E": ["###", "#  ", "## ", "#  ", "###"],
        "F": ["###", "#  ", "## ", "#  ", "#  "],
        "L": ["#  ", "#  ", "#  ", "#  ", "###"],
        "M": ["#   #", "## ##", "# # #", "#   #", "#   #"],
        "S": [" ##", "#  ", " # ", "  #", "## "],
        "X": ["# #", "# #", " # ", "# #", "# #"],
        "?": ["###", "  #", " ##", "   ", " # "],
        "/": ["  #", "  #", " # ", "#  ", "#  "],
        ":": [" ", "#", " ", "#", " "],
        "☕": [" # #  ", "      ", "##### ", "#### #", " ###  "],
    ]
}

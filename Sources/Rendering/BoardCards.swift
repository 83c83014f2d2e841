import EstimatorKit

/// The board's cards, one per present voter with the name under it: empty
/// until its owner votes, face down (`░`) once voted, face up after the
/// reveal (or at once with `--open`). Large cards draw the face in
/// `BlockFont` at a scale; small ones as the table writes it. Rows of cards
/// are centered as one block, so cards stay in columns.
struct BoardCards {
    /// How a card is drawn.
    enum Style {
        /// The face in large letters, `scale` times over.
        case large(scale: Int)
        /// The face as text, in a box three lines tall.
        case small
    }

    private enum Face {
        case empty, back, card(Card)
    }

    private struct Cell {
        let face: Face
        let name: String
        let nameWidth: Int
    }

    /// The widest name shown whole under a card.
    static let nameWidth = 12
    /// Cells between two cards.
    private static let gap = 2

    let style: Style
    private let cells: [Cell]
    private let ink: BoardInk
    private let ascii: Bool
    private let innerWidth: Int
    private let innerHeight: Int
    /// Each card's column: the card, or its name when wider.
    private let slot: Int
    private let perRow: Int

    /// Lines the cards take, names and the blank lines between rows included.
    var height: Int {
        let rows = (cells.count + perRow - 1) / perRow
        return rows * (innerHeight + 3) + max(rows - 1, 0)
    }

    /// The cards of `voters` in `style`, in `width` columns; nil when a card
    /// is wider than that.
    init?(_ voters: [Tally.Entry], style: Style, width: Int, ink: BoardInk, ascii: Bool) {
        self.style = style
        self.ink = ink
        self.ascii = ascii
        cells = voters.map { entry in
            let face: Face = switch entry.mark {
            case .waiting, .observing: .empty
            case .hidden: .back
            case let .shown(card): .card(card)
            }
            let name = ShownName.text(entry)
            let shown = ascii ? ASCIIFallback.fold(name) : name
            return Cell(face: face, name: shown, nameWidth: TerminalText.displayWidth(shown))
        }
        let faces = cells.compactMap { cell -> Card? in if case let .card(card) = cell.face { card } else { nil } }
        switch style {
        case let .large(scale):
            // Two digits wide at least, so every card has a card's shape.
            let widest = faces.map { BlockFont.width(BlockFont.face(of: $0), scale: scale) }.max() ?? 0
            innerWidth = max(widest, BlockFont.width("00", scale: scale)) + 2 * scale
            innerHeight = BlockFont.height * scale + 2 * (scale - 1)
        case .small:
            let widest = faces.map { TerminalText.displayWidth(Self.text(of: $0, ascii: ascii)) }.max() ?? 0
            innerWidth = max(widest, 3) + 2
            innerHeight = 1
        }
        let widestName = cells.map(\.nameWidth).max() ?? 0
        slot = max(innerWidth + 2, min(widestName, Self.nameWidth))
        guard slot <= width else { return nil }
        perRow = max((width + Self.gap) / (slot + Self.gap), 1)
    }

    /// The cards' lines, the block centered in `width` columns.
    func lines(width: Int) -> [String] {
        let columns = min(cells.count, perRow)
        let indent = String(repeating: " ", count: max(width - (columns * slot + (columns - 1) * Self.gap), 0) / 2)
        let gap = String(repeating: " ", count: Self.gap)
        var lines: [String] = []
        for start in stride(from: 0, to: cells.count, by: perRow) {
            let row = cells[start..<min(start + perRow, cells.count)]
            if start > 0 { lines.append("") }
            for line in 0..<(innerHeight + 2) {
                lines.append(indent + row.map { TextFitting.center(draw($0.face, line: line), width: innerWidth + 2, in: slot) }
                    .joined(separator: gap))
            }
            lines.append(indent + row.map { cell in
                let name = TextFitting.truncate(cell.name, toWidth: slot)
                return TextFitting.center(name, width: TerminalText.displayWidth(name), in: slot)
            }.joined(separator: gap))
        }
        return lines
    }

    /// Line `line` of a card, its border included.
    private func draw(_ face: Face, line: Int) -> String {
        if line == 0 { return String(ink.topLeft) + String(repeating: ink.horizontal, count: innerWidth) + String(ink.topRight) }
        if line == innerHeight + 1 {
            return String(ink.bottomLeft) + String(repeating: ink.horizontal, count: innerWidth) + String(ink.bottomRight)
        }
        return String(ink.vertical) + inside(face, line: line - 1) + String(ink.vertical)
    }

    /// Line `line` of a card's inside, `innerWidth` cells.
    private func inside(_ face: Face, line: Int) -> String {
        let blank = String(repeating: " ", count: innerWidth)
        switch (style, face) {
        case (_, .back): return String(repeating: ink.back, count: innerWidth)
        case (.large, .empty): return blank
        case let (.large(scale), .card(card)):
            let text = BlockFont.face(of: card)
            let top = scale - 1
            guard line >= top, line < top + BlockFont.height * scale else { return blank }
            let row = BlockFont.rows(text, scale: scale, ink: ink.block)[line - top]
            return TextFitting.center(row, width: BlockFont.width(text, scale: scale), in: innerWidth)
        case (.small, .empty): return TextFitting.center(ink.waiting, width: 1, in: innerWidth)
        case let (.small, .card(card)):
            let text = Self.text(of: card, ascii: ascii)
            return TextFitting.center(text, width: TerminalText.displayWidth(text), in: innerWidth)
        }
    }

    /// A card's face as the table writes it.
    private static func text(of card: Card, ascii: Bool) -> String {
        ascii ? ASCIIFallback.fold(card.description) : card.description
    }
}

/// The characters the board draws with: box drawing and blocks, or their
/// nearest ASCII for a locale that is not UTF-8 (`ASCIIFallback`).
struct BoardInk {
    /// A set cell of the large letters.
    let block: Character
    /// The back of a card: voted, not revealed yet.
    let back: Character
    let topLeft: Character, topRight: Character, bottomLeft: Character, bottomRight: Character
    let horizontal: Character, vertical: Character
    /// The chart's bars.
    let bar: Character
    /// Marks the chart's row of the agreed estimate.
    let pointer: Character
    /// A small card's face until its owner votes.
    let waiting: String

    static let unicode = BoardInk(block: "█", back: "░", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
                                  horizontal: "─", vertical: "│", bar: "█", pointer: "▶", waiting: "·")
    static let ascii = BoardInk(block: "#", back: ":", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
                                horizontal: "-", vertical: "|", bar: "#", pointer: ">", waiting: ".")
}

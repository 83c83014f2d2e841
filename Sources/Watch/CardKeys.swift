import EstimatorKit

/// The keys that pick a card in `join --foreground`, for my deck, and
/// their legend.
///
/// The app's deck keeps its keys (`h` ½, `t` 13, `w` 20, `f` 40, `x` 100).
/// Another deck gives a one-digit number its digit, a one-letter size its
/// letter (`s m l`), and every other card the next free letter, in the
/// deck's order (fibonacci: `a` 13, `b` 21 …; tshirt: `a` XS, `b` XL …);
/// cards past the letters are picked with `estimator pick`. `?`, `c` coffee
/// and `n` none are in every deck.
package struct CardKeys {
    /// The keys and what they pick, in the legend's order.
    package let cards: [(key: UInt8, card: Card)]
    /// Whether some of the deck's cards have no key.
    private let isPartial: Bool

    /// The keys of `deck`'s cards.
    package init(deck: Deck) {
        var keys: [(key: UInt8, card: Card)] = []
        if deck == .app {
            let appKeys: [(Unicode.Scalar, Card)] = [
                ("0", .zero), ("h", .half), ("1", .one), ("2", .two), ("3", .three), ("5", .five), ("8", .eight),
                ("t", .thirteen), ("w", .twenty), ("f", .forty), ("x", .hundred),
            ]
            keys = appKeys.map { (UInt8(ascii: $0.0), $0.1) }
        } else {
            // A card named by one digit or letter keeps it (`5`, `m` for M);
            // the others take the letters left, in the deck's order.
            let own = deck.cards.compactMap { card -> (key: UInt8, card: Card)? in
                guard let name = card.name?.lowercased(), name.utf8.count == 1, let key = name.utf8.first,
                      ("0"..."9").contains(name) || Self.letters.contains(key) else { return nil }
                return (key, card)
            }
            var letters = Self.letters.filter { letter in !own.contains { $0.key == letter } }.makeIterator()
            for card in deck.cards {
                if let mine = own.first(where: { $0.card == card }) {
                    keys.append(mine)
                } else if let letter = letters.next() {
                    keys.append((letter, card))
                }
            }
        }
        isPartial = keys.count < deck.cards.count
        cards = keys + [(UInt8(ascii: "?"), .question), (UInt8(ascii: "c"), .coffee), (UInt8(ascii: "n"), .waiting)]
    }

    /// Letters free for cards: not `c` coffee, `h`, `n` none, `q` quit,
    /// `r` round, `v` reveal; lowercase, then uppercase.
    private static let letters = Array("abdefgijklmopstuwxyzABDEFGIJKLMOPSTUWXYZ".utf8)

    /// The card `key` picks, if any.
    package func card(for key: UInt8) -> Card? { cards.first { $0.key == key }?.card }

    /// `keys: 0 h=½ 1 … ? c=☕ n=none · r next round · v reveal · q leave`.
    package var legend: String {
        let picks = cards.map { key, card in
            let typed = String(decoding: [key], as: UTF8.self)
            let shown = card == .waiting ? "none" : card.description
            return typed == shown ? typed : "\(typed)=\(shown)"
        }
        let more = isPartial ? " (more: estimator pick)" : ""
        return "keys: \(picks.joined(separator: " "))\(more) · r next round · v reveal · q leave"
    }
}

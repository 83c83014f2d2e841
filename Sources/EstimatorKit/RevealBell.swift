/// When a table rings the terminal's bell (BEL): once when a round's cards
/// show, for a round it saw hidden. Never for a round that was revealed
/// already when the table first looked at it (a watch started after the
/// reveal), and not again for a re-vote or a redraw. `watch` and
/// `join --foreground` both ring by this rule.
public struct RevealBell: Sendable {
    /// Per channel, the round last seen hidden and not rung for yet.
    private var armed: [Channel: RoundNumber?] = [:]

    public init() {}

    /// Takes how `channel`'s round stands: `decided`, whether the room has
    /// revealed it (`Ballot.isRevealed`); `shown`, whether the table shows
    /// the cards (`Tally.isRevealed`, which may wait for a last vote on its
    /// way). Returns whether to ring now.
    public mutating func rings(channel: Channel, round: RoundNumber?, decided: Bool, shown: Bool) -> Bool {
        guard decided else {
            armed[channel] = .some(round)
            return false
        }
        guard shown, let seen = armed[channel], seen == round else { return false }
        armed[channel] = nil
        return true
    }
}

import EstimatorKit

/// What my channel's round is to report to the history: its story and
/// agreed estimate as the meeting says (`RoundMeeting`), every vote cast
/// since the reveal (the latest per person). A vote once cast stays:
/// leaving or turning stale after the reveal does not take it back; a
/// re-vote replaces it.
struct RevealLedger {
    /// The round as last reported; `nil` until its cards are revealed.
    private var report: RevealedRound?
    /// The consensus of the votes last counted with every card in (none
    /// on its way over the air: `Tally.cardsDue`), which the meeting follows
    /// while the room settles on no other card.
    var consensus: Card?
    /// The round my session joined as it ran (a meeting under way), until
    /// a round's report carries it (`RevealedRound.joinedAt`); a new round
    /// keeps it, since the round joined may never be revealed here.
    var joinedAt: RoundNumber?

    /// Whether this round's cards have been revealed.
    var hasRevealed: Bool { report != nil }

    /// The votes counted since the reveal, by name.
    var votes: [String: Card] { report?.votes ?? [:] }


    /// A new round, or another channel: nothing revealed.
    mutating func reset() {
        report = nil
        consensus = nil
    }

    /// Takes my channel's tally at `now`, of the round `meeting` is about;
    /// returns the round to report when its cards were revealed just now or
    /// a vote changed since. `deck` is mine, the one the mean is rounded to.
    mutating func take(_ tally: Tally, channel: Channel, meeting: RoundMeeting, deck: Deck, now: Timestamp) -> RevealedRound? {
        guard tally.isRevealed else { return nil }
        let counted = Dictionary(tally.entries.filter { !$0.isStale && $0.card.isVote && $0.mark == .shown($0.card) }
            .map { ($0.name, $0.card) }, uniquingKeysWith: { a, _ in a })
        let votes = votes.merging(counted) { _, new in new }
        guard report == nil || votes != report?.votes else { return nil }
        report = RevealedRound(channel: channel, round: tally.round, title: meeting.story?.title,
                               revealedAt: report?.revealedAt ?? now, votes: votes, deck: deck, story: meeting.story,
                               agreed: meeting.agreed, joinedAt: report == nil ? joinedAt : report?.joinedAt)
        joinedAt = nil
        return report
    }

    /// Takes the story and agreed estimate of `meeting` (a settle, here or
    /// heard from the room); returns the round to report again when they
    /// changed it, `nil` before the reveal.
    mutating func retell(_ meeting: RoundMeeting) -> RevealedRound? {
        guard var changed = report else { return nil }
        changed.story = meeting.story
        changed.title = meeting.story?.title
        changed.agreed = meeting.agreed
        guard changed != report else { return nil }
        report = changed
        return changed
    }
}

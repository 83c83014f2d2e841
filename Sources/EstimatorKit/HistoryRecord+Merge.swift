/// One record per round, wherever it was heard from: the rules by which a
/// laptop's history takes a new report of a round it may have recorded
/// before.
///
/// - A report with the id of a line is that session's view of the round
///   again (a re-vote, a settle): it replaces the line's votes person by
///   person and its agreed estimate, since that session has heard the
///   room since.
/// - A report with another id may still be the same round, heard again by
///   a later session on this laptop (a `leave; join`, a kill -9 and a
///   rejoin, a restart): `isSameRound(as:)` says so. It is merged into the
///   line, never written beside it.
/// - Either way the votes are the union of what was heard: a person's
///   latest card replaces their earlier one, and a later view with fewer
///   votes (the rejoined session no longer has its own card, nor those of
///   voters who left meanwhile) never takes a vote away.
/// - A report with another id keeps the story and the agreed estimate the
///   line has until it carries its own: a rejoined session reveals on the
///   room's `3R` before the meeting's parts reach it. It keeps the line's
///   `joined` too: this laptop heard the round before the later session
///   joined it.
/// - The round keeps the time it was first revealed; the line takes the
///   report's id, so the later session's next reports are its own view.
extension HistoryRecord {
    /// How long after a record of a round a report of the same round number,
    /// story and channel can still be that round heard again: a discussion
    /// after a reveal runs minutes, and a channel's round numbers, modulo 16,
    /// come round again within a meeting only after sixteen other rounds.
    public static let sameRoundWithin: Duration = .seconds(6 * 3600)

    /// Whether `report` is this round heard again by another session: the
    /// same channel and round number, within `sameRoundWithin`, and the same
    /// story unless the report has none yet. The caller asks it of the
    /// latest record of the channel alone, so a later round of the channel
    /// in between makes them two rounds.
    public func isSameRound(as report: HistoryRecord) -> Bool {
        guard let round, report.round == round, report.channel == channel,
            report.subject == nil || report.subject == subject
        else { return false }
        let apart = report.time - time
        return apart >= .zero && apart <= Self.sameRoundWithin
    }

    /// `report`, a round after this line's, without its `joined` mark when
    /// this laptop's history runs on to it: this line is the latest of the
    /// channel, of the round joined or the one before it, within
    /// `sameRoundWithin`. A `leave; join` in a meeting leaves no mark.
    public func continued(by report: HistoryRecord) -> HistoryRecord {
        guard let joined = report.joined, let round, report.channel == channel,
            round == joined || (round + 1) % 16 == joined, report.time - time <= Self.sameRoundWithin
        else { return report }
        var continued = report
        continued.joined = nil
        return continued
    }

    /// This line with `report` of the same round taken in (the rules above);
    /// the figures are counted again on `deck` when the votes changed.
    public func merging(_ report: HistoryRecord, deck: Deck) -> HistoryRecord {
        var merged = report
        merged.time = time
        if report.id != id {
            if report.subject == nil { (merged.story, merged.title) = (story, title) }
            merged.agreed = report.agreed ?? agreed
            merged.joined = joined
        }
        var byName = Dictionary(votes.map { ($0.name, $0.card) }, uniquingKeysWith: { _, last in last })
        for vote in report.votes { byName[vote.name] = vote.card }
        let union = byName.map { Vote(name: $0.key, card: $0.value) }.sorted { $0.name < $1.name }
        guard union != report.votes else { return merged }
        let stats = Stats(union.map { (name: $0.name, card: $0.card) }, deck: deck)
        merged.votes = union
        (merged.median, merged.mean, merged.nearest) = (stats.median, stats.mean, stats.nearest)
        (merged.consensus, merged.questions, merged.coffees) = (stats.isConsensus, stats.questions, stats.coffees)
        return merged
    }
}

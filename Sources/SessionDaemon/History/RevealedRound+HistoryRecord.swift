import EstimatorKit
import SessionCore

extension HistoryRecord {
    /// The history's record of a revealed round: the same id for every
    /// report of one round, so a re-vote replaces its line.
    package init(_ round: RevealedRound) {
        let number = round.round.map { Int($0.value) }
        let stats = Stats(round.votes.map { (name: $0.key, card: $0.value) }, deck: round.deck)
        self.init(
            id: HistoryRecord.id(channel: round.channel, round: number, revealedAt: round.revealedAt),
            time: round.revealedAt, channel: round.channel, round: number, title: round.title,
            votes: round.votes.map { HistoryRecord.Vote(name: $0.key, card: $0.value) },
            median: stats.median, mean: stats.mean, nearest: stats.nearest, consensus: stats.isConsensus,
            questions: stats.questions, coffees: stats.coffees, story: round.story, agreed: round.agreed,
            joined: round.joinedAt.map { Int($0.value) })
    }
}

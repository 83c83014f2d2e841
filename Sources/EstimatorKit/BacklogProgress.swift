/// A backlog and what the history says of each story: which have an agreed
/// estimate, and so which story a round without a title takes next.
///
/// A story is estimated once a round of it has an agreed estimate
/// (`Agreement`: its consensus, or a card settled on). Until then it stays
/// next: a round that ends without agreement is voted again after the
/// discussion, as planning poker goes.
public struct BacklogProgress: Equatable, Sendable {
    /// One story of the backlog and its agreed estimate.
    public struct Entry: Equatable, Sendable {
        public let story: Story
        /// The estimate of the story's newest round that has one; `nil`
        /// while none has.
        public let agreed: Card?
    }

    public let backlog: Backlog
    /// The backlog's stories, in order, with their estimates.
    public let entries: [Entry]

    /// The progress of `backlog` as `history` (oldest first) tells it.
    public init(_ backlog: Backlog, history: [HistoryRecord]) {
        var agreed: [Story.Identity: Card] = [:]
        for record in history {
            if let card = record.agreed, let identity = record.subject?.identity { agreed[identity] = card }
        }
        self.backlog = backlog
        entries = backlog.stories.map { Entry(story: $0, agreed: agreed[$0.identity]) }
    }

    /// The next story to estimate and its place in the backlog (0 for the
    /// first): the first without an agreed estimate; `nil` when every story
    /// has one.
    public var next: (index: Int, story: Story)? {
        entries.firstIndex { $0.agreed == nil }.map { ($0, entries[$0].story) }
    }

    /// How many stories have an agreed estimate.
    public var estimated: Int { entries.count { $0.agreed != nil } }

    /// The story whose key is `text` (case aside), for `estimator round ABC-7`.
    public func story(keyed text: String) -> Story? {
        let wanted = text.lowercased()
        return backlog.stories.first { $0.key?.lowercased() == wanted }
    }
}

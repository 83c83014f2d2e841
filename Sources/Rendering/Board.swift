import EstimatorKit

/// What the board (`watch --board`) shows of one channel's round, for a
/// projector or a big screen: the story, everyone's card, who is still to
/// vote, the timer, and after the reveal how the votes fall and the
/// estimate agreed. One value per frame, from one snapshot of the room.
///
/// Text is as received (from the air, a session, a backlog file): the
/// renderer sanitises it.
public struct Board: Equatable, Sendable {
    /// The story a round estimates, as a backlog names it.
    public struct Story: Equatable, Sendable {
        /// Its key in the tracker (`ABC-123`), if it has one.
        public var key: String?
        /// What it is about.
        public var summary: String?

        public init(key: String?, summary: String?) {
            self.key = key
            self.summary = summary
        }
    }

    public var channel: Channel
    /// The story, when the session says which; it heads the board.
    public var story: Story?
    /// The round's title, heading the board when there is no story.
    public var title: String?
    /// The votes as counted: each present voter's mark, who is still to
    /// vote, the reveal and the figures.
    public var tally: Tally
    /// The estimate the team settled on, once it has.
    public var agreed: Card?
    /// What is left of the timer that reveals the round, while one runs.
    public var remaining: Duration?
    /// The adapter in use, shown in the header.
    public var adapter: String
    /// Whether this is a `watch` with no session: it only looks on.
    public var isObserving: Bool
    /// A short warning the header carries after the timer (`relay down
    /// since 14:02`).
    public var notice: String?

    public init(channel: Channel, story: Story? = nil, title: String? = nil, tally: Tally, agreed: Card? = nil,
                remaining: Duration? = nil, adapter: String, isObserving: Bool = false) {
        self.channel = channel
        self.story = story
        self.title = title
        self.tally = tally
        self.agreed = agreed
        self.remaining = remaining
        self.adapter = adapter
        self.isObserving = isObserving
    }

    /// The board of a channel as the room sees it (`Room.view`).
    public init(_ view: Room.View, adapter: String, isObserving: Bool = false, remaining: Duration? = nil) {
        self.init(channel: view.channel, title: view.title, tally: view.tally, remaining: remaining, adapter: adapter,
                  isObserving: isObserving)
    }

    /// The people whose cards the board shows: present, fresh voters (the
    /// observers and stale people are not waited for, and do not count).
    package var voters: [Tally.Entry] { tally.entries.filter { !$0.isStale && !$0.isObserver } }
}

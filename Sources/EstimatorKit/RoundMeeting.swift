/// What a round's meeting is about, as the whole room shares it: the story
/// being estimated, where it came from, the timer's deadline and the agreed
/// estimate (docs/PROTOCOL.md, Meeting).
///
/// Every session keeps one for its round, carries it on the air beside its
/// local name and through the relay, and merges every one it hears of the
/// same round into its own (`merging`). The merge is commutative,
/// associative and idempotent, so every laptop that has heard the same
/// meetings holds the same one, whatever the order it heard them in:
/// - **The story**: a typed one (`round TITLE`) beats one a backlog chose,
///   which beats none; between two of one source, the one whose title's
///   UTF-8 bytes sort first, but a whole title beats its own beginning (the
///   air carries a long title cut, the relay whole). So a round started
///   without a story takes the backlog holder's next one, two backlogs
///   agree on one, and the whole title reaches every laptop that the relay
///   reaches. Of two stories with one title, the one with a key wins.
/// - **The timer and the agreed estimate** change together, each change
///   numbered (`change`, modulo 16, newer in serial arithmetic as rounds
///   are: `RoundNumber.isNewer`): the newer change wins, so a later settle
///   or timer replaces an earlier one everywhere. Two changes of one number
///   (made at the same moment) are ordered by their bytes: the earlier
///   deadline, then the smaller card, wins.
public struct RoundMeeting: Hashable, Sendable {
    /// Where a round's story came from, in the order a merge prefers them.
    public enum Source: UInt8, Comparable, Sendable {
        /// The round has no story yet.
        case none = 0
        /// A backlog's next story, chosen by the session holding the backlog.
        case backlog = 1
        /// Typed with the round (`estimator round TITLE`).
        case typed = 2

        public static func < (a: Source, b: Source) -> Bool { a.rawValue < b.rawValue }
    }

    /// The story the round estimates; nil while it has none.
    public private(set) var story: Story?
    /// Where `story` came from (`.none` exactly when `story` is nil).
    public private(set) var source: Source
    /// The number of the timer's and agreement's last change, 0 to 15.
    public private(set) var change: UInt8
    /// When the round is revealed by its timer, in whole seconds; nil when
    /// no timer runs.
    public private(set) var deadline: Timestamp?
    /// The estimate the room agreed on, once revealed; nil before.
    public private(set) var agreed: Card?

    /// A meeting with no story, timer or agreement: a round just begun.
    public init() {
        story = nil
        source = .none
        change = 0
        deadline = nil
        agreed = nil
    }

    /// A meeting as it was heard or decoded: `change` is taken modulo 16,
    /// `deadline` to the whole second (the one it falls in: the
    /// countdown a table shows starts at the whole length asked), and a story with no source
    /// (or a source with no story) is no story.
    public init(story: Story?, source: Source, change: UInt8, deadline: Timestamp?, agreed: Card?) {
        self.story = source == .none ? nil : story
        self.source = story == nil ? .none : source
        self.change = change & 0xF
        self.deadline = deadline.map(Self.wholeSecond)
        self.agreed = agreed
    }

    /// The meeting with `story` from `source`, when it is preferred to the
    /// story it has (see the type's rules).
    public func choosing(_ story: Story, from source: Source) -> RoundMeeting {
        merging(RoundMeeting(story: story, source: source, change: change, deadline: deadline, agreed: agreed))
    }

    /// The meeting after a local change of the timer: `deadline` (nil stops
    /// it), numbered after the last change.
    public func timing(_ deadline: Timestamp?) -> RoundMeeting {
        RoundMeeting(story: story, source: source, change: change &+ 1, deadline: deadline, agreed: agreed)
    }

    /// The meeting after a local settle on `agreed` (nil unsettles), numbered
    /// after the last change. The timer has no more to do once a round is
    /// agreed, so it goes.
    public func settling(_ agreed: Card?) -> RoundMeeting {
        RoundMeeting(story: story, source: source, change: change &+ 1, deadline: nil, agreed: agreed)
    }

    /// This meeting merged with `other`, heard for the same round (see the
    /// type's rules).
    public func merging(_ other: RoundMeeting) -> RoundMeeting {
        let (story, source) = Self.prefersStory(of: other, over: self)
            ? (other.story, other.source) : (self.story, self.source)
        let timed = Self.prefersChange(of: other, over: self) ? other : self
        return RoundMeeting(story: story, source: source, change: timed.change, deadline: timed.deadline,
                            agreed: timed.agreed)
    }

    private static func prefersStory(of a: RoundMeeting, over b: RoundMeeting) -> Bool {
        if a.source != b.source { return a.source > b.source }
        guard let aStory = a.story, let bStory = b.story else { return false }
        if aStory.title != bStory.title { return precedes(aStory.title, bStory.title) }
        guard let aKey = aStory.key else { return false }
        guard let bKey = bStory.key else { return true }
        return precedes(aKey, bKey)
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s, where the end of a text
    /// sorts after every byte: a text precedes its own beginning. A total
    /// order, so the merge stays associative.
    private static func precedes(_ a: String, _ b: String) -> Bool {
        var (aBytes, bBytes) = (a.utf8.makeIterator(), b.utf8.makeIterator())
        while true {
            switch (aBytes.next(), bBytes.next()) {
            case let (x?, y?) where x != y: return x < y
            case (.some, .some): continue
            case (.some, nil): return true
            case (nil, _): return false
            }
        }
    }

    private static func prefersChange(of a: RoundMeeting, over b: RoundMeeting) -> Bool {
        if a.change != b.change {
            return RoundNumber(wrapping: Int(a.change)).isNewer(than: RoundNumber(wrapping: Int(b.change)))
        }
        switch (a.deadline, b.deadline) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        switch (a.agreed, b.agreed) {
        case let (x?, y?): return x.rawValue < y.rawValue
        case (.some, nil): return true
        default: return false
        }
    }

    private static func wholeSecond(_ time: Timestamp) -> Timestamp {
        let (seconds, rest) = time.nanosecondsSince1970.quotientAndRemainder(dividingBy: 1_000_000_000)
        return Timestamp(secondsSince1970: rest < 0 ? seconds - 1 : seconds)
    }
}

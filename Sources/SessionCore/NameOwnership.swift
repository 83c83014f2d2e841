import EstimatorKit

/// Whether my name in my channel is someone else's too, and which of us
/// should change it. A peer is a channel and a name, so two people with one
/// name are one row, and the other one is hidden as if it were my own
/// advertisement heard back.
///
/// - Over the air, a packet with my name is always someone else's: a
///   controller does not report its own advertising.
/// - Through the relay, my own packet comes back when someone forwards what
///   they hear of me; it is told apart by the local names I advertised
///   lately. A packet the same as one of mine is taken for my echo there.
/// - Whoever took the name last changes it: someone heard with my name while
///   I was still hearing the room (`ChannelRound.listening` after I took
///   the name) was here first, and I am told; someone heard only after that
///   came after me, and is told on their own laptop.
struct NameOwnership {
    private var recentlyAdvertised: [[UInt8]] = []
    /// When I took my name in my channel.
    private var since: Timestamp
    /// Set once someone else is heard with my name; cleared with the name.
    private(set) var heardSomeoneElse = false
    /// Whether that someone came after me (and so changes theirs).
    private(set) var cameAfterMe = false

    /// My name, taken at `now`.
    init(since now: Timestamp) { since = now }

    /// Whether I should give myself another name: someone who was here
    /// before me has it.
    var shouldRename: Bool { heardSomeoneElse && !cameAfterMe }

    /// Notes `localName` as going on the air now, and returns it.
    mutating func advertising(_ localName: [UInt8]) -> [UInt8] {
        recentlyAdvertised = Array((recentlyAdvertised + [localName]).suffix(4))
        return localName
    }

    /// Takes a packet heard with my name in my channel at `now`; returns
    /// whether it is the first sign of someone else.
    mutating func heard(_ localName: [UInt8], relayed: Bool, now: Timestamp) -> Bool {
        guard !heardSomeoneElse, !relayed || !recentlyAdvertised.contains(localName) else { return false }
        heardSomeoneElse = true
        cameAfterMe = now - since > ChannelRound.listening
        return true
    }

    /// Someone else is in the table with the name I take now: they were here first.
    mutating func taken() {
        heardSomeoneElse = true
        cameAfterMe = false
    }

    /// Another name or channel, taken at `now`: nobody else is known to have it yet.
    mutating func took(at now: Timestamp) {
        since = now
        heardSomeoneElse = false
        cameAfterMe = false
    }
}

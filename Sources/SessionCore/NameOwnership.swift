/// Whether my name in my channel is someone else's too: a peer is a channel
/// and a name, so two people with one name are one row, and the other one
/// is hidden as if it were my own advertisement heard back. My own is told
/// apart by the local names I advertised lately.
struct NameOwnership {
    private var recentlyAdvertised: [[UInt8]] = []
    /// Set once someone else is heard with my name; cleared with the name.
    private(set) var heardSomeoneElse = false

    /// Notes `localName` as going on the air now, and returns it.
    mutating func advertising(_ localName: [UInt8]) -> [UInt8] {
        recentlyAdvertised = Array((recentlyAdvertised + [localName]).suffix(4))
        return localName
    }

    /// Takes a packet heard with my name in my channel; returns whether it
    /// is the first sign of someone else.
    mutating func heard(_ localName: [UInt8]) -> Bool {
        guard !recentlyAdvertised.contains(localName), !heardSomeoneElse else { return false }
        heardSomeoneElse = true
        return true
    }

    /// Someone else was heard with the name I just took.
    mutating func taken() { heardSomeoneElse = true }

    /// Another name or channel: nobody else is known to have it yet.
    mutating func forget() { heardSomeoneElse = false }
}

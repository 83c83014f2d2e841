/// The room's signal floor (`SignalFloor`): how far it reaches, and the
/// count of people heard nearby whom it keeps out of the room.
extension Room {
    /// How far the room reaches (`SignalFloor`). A change applies from the
    /// next reception of each peer, with the floor's times: a peer now
    /// beyond it leaves after the lose time, one now within it comes in
    /// after the find time.
    public var range: SignalRange? {
        get { floor?.range }
        set {
            guard let newValue else { return floor = nil }
            if floor == nil { floor = SignalFloor(range: newValue) } else { floor?.range = newValue }
        }
    }

    /// Whether `id` is heard now at the level the floor finds a peer at
    /// (`SignalFloor.isAtFoundLevel`); every peer is, without a floor.
    public func isAtFoundLevel(_ id: PeerID, now: Timestamp) -> Bool {
        floor?.isAtFoundLevel(id, at: now) ?? true
    }

    /// Notes the channels whose count of people out of the room changed.
    mutating func recountOut(now: Timestamp, into update: inout Update) {
        guard let floor else { return }
        let counts = floor.outCounts(heardSince: now - table.staleAfter)
        guard counts != outCounts else { return }
        for channel in Set(counts.keys).union(outCounts.keys) where counts[channel] != outCounts[channel] {
            update.counted.insert(channel)
        }
        outCounts = counts
    }
}

/// Names heard in a full channel: counted, not stored.
///
/// A hostile advertiser can cycle through any number of names. The table
/// keeps at most `PeerTable.peersPerChannel` peers per channel; for the rest
/// it remembers only a hash of each name and when it was last heard, so it
/// can say "N more" without counting one name twice, and forgets a name
/// after the drop time like any peer. The hashes are capped too
/// (`trackedLimit`), after which the count stops growing: memory stays
/// bounded whatever arrives.
package struct PeerTableOverflow {
    /// Most hashed names remembered per channel.
    package static let trackedLimit = 1024

    private var lastHeard: [Channel: [Int: Timestamp]] = [:]

    /// How many distinct names heard in `channel` are not stored.
    func count(in channel: Channel) -> Int { lastHeard[channel]?.count ?? 0 }

    /// Notes a sighting that found its channel full.
    mutating func note(_ id: PeerID, at time: Timestamp) {
        let key = id.name.hashValue
        let known = lastHeard[id.channel]?[key]
        guard known != nil || count(in: id.channel) < Self.trackedLimit else { return }
        lastHeard[id.channel, default: [:]][key] = max(time, known ?? time)
    }

    /// Forgets a name: it left, or it now has a row.
    mutating func forget(_ id: PeerID) {
        lastHeard[id.channel]?[id.name.hashValue] = nil
        if lastHeard[id.channel]?.isEmpty == true { lastHeard[id.channel] = nil }
    }

    /// Forgets names not heard since `cutoff`.
    mutating func forget(notHeardSince cutoff: Timestamp) {
        for channel in Array(lastHeard.keys) {
            lastHeard[channel] = lastHeard[channel]?.filter { $0.value > cutoff }
            if lastHeard[channel]?.isEmpty == true { lastHeard[channel] = nil }
        }
    }
}

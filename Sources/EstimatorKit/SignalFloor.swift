/// Who is close enough to be in the room, judged from signal strength over
/// time (docs/PROTOCOL.md, Peers): a team next door through a wall is
/// heard, but is not in our room.
///
/// Pure and clock-free: every reception carries its time. The rules, per
/// peer:
/// - a peer's level is the mean RSSI of its receptions over the last
///   `window` (8 s): one reading swings by 10 dB or more with bodies and
///   orientation, a mean of several does not;
/// - a peer is **found** (in) once its level has been at or above the
///   range's `found` level across receptions spanning `findAfter` (1 s), as
///   phones' proximity features need a second above their threshold, and
///   over at least `findReadings` (3) receptions: a controller that filters
///   duplicates reports a peer about once a scan, so a second may hold only
///   two readings, and two lucky readings of a neighbour through a wall
///   (a mean 7 dB above theirs) come often enough to find one now and then;
/// - a reception `clearlyAbove` (15 dB) the found level finds the peer at
///   once: readings swing by about 10 dB, so nobody beyond the floor is
///   heard that strongly, and a teammate close by shows as soon as heard;
/// - a peer found is **lost** (out) once its level has stayed below the
///   range's `lost` level for `loseAfter` (20 s), within the 7–40 s phones
///   take to lose a device: the gap between the two levels and the time
///   keep a teammate at the edge of the range from flickering;
/// - a reception through the relay or without a strength (a radio that
///   gives none) finds the peer: the floor judges only what it measures.
///
/// Memory is bounded: at most `capacity` peers are followed, the one heard
/// longest ago forgotten first, each with at most `readingsKept` readings;
/// `forget(notHeardSince:)` forgets the quiet ones.
public struct SignalFloor: Sendable {
    /// The mean is taken over this long.
    public static let window = Duration.seconds(8)
    /// Found: at or above the found level across receptions this far apart.
    public static let findAfter = Duration.seconds(1)
    /// Found: and over at least this many receptions in the window.
    public static let findReadings = 3
    /// Found at once: a reception this far above the found level, in dB.
    public static let clearlyAbove = 15
    /// Lost: below the lost level for this long.
    public static let loseAfter = Duration.seconds(20)
    /// Most peers followed at once: 64 stored a channel, and room for
    /// candidates beyond them, whatever a flood of names brings.
    public static let capacity = 1024
    /// Most readings kept per peer within the window: more make the mean no
    /// steadier, only longer to keep.
    public static let readingsKept = 16

    /// How far the room reaches.
    public var range: SignalRange

    private var tracks: [PeerID: Track] = [:]

    /// One peer as the floor follows it.
    private struct Track: Sendable {
        var readings: [(time: Timestamp, rssi: Int)] = []
        var isIn = false
        /// Since when the level has been at or above the found level.
        var aboveSince: Timestamp?
        /// Since when the level has been below the lost level.
        var belowSince: Timestamp?
        var lastHeard: Timestamp

        /// The level at `time`: the mean of the readings in the window
        /// before it, in dBm; nil without one.
        /// Allocates nothing: it runs at every reception (`judge`).
        func level(at time: Timestamp) -> Double? {
            var (sum, count) = (0, 0)
            for reading in readings where time - reading.time < SignalFloor.window {
                sum += reading.rssi
                count += 1
            }
            return count == 0 ? nil : Double(sum) / Double(count)
        }
    }

    public init(range: SignalRange = .room) {
        self.range = range
    }

    /// Takes a reception of `id` at `time`: over the air at `rssi` dBm (nil
    /// when the radio gives none), or through the relay. Returns whether the
    /// peer is in the room after it.
    @discardableResult
    public mutating func hear(_ id: PeerID, rssi: Int?, relayed: Bool, at time: Timestamp) -> Bool {
        var track = tracks[id] ?? Track(lastHeard: time)
        if tracks[id] == nil, tracks.count >= Self.capacity { forgetOldest() }
        track.lastHeard = max(track.lastHeard, time)
        if let rssi, !relayed {
            // Only the old go: a reception told late (an app user's, held
            // until its device is known) keeps the later ones.
            track.readings.removeAll { time - $0.time >= Self.window }
            track.readings.append((time, rssi))
            if track.readings.count > Self.readingsKept { track.readings.removeFirst() }
            judge(&track, at: time)
        } else {
            track.isIn = true
            track.belowSince = nil
        }
        tracks[id] = track
        return track.isIn
    }

    /// Whether `id` is in the room: found and not lost since.
    public func isIn(_ id: PeerID) -> Bool { tracks[id]?.isIn ?? false }

    /// Whether `id`'s level at `time`, the mean of its readings in the
    /// window before, is at or above the found level; so is a peer with no
    /// reading there (relayed, or from a radio that gives no strength). A
    /// choice made once (finding a room) counts on this, not on `isIn`:
    /// a neighbour found by a lucky run of readings stays in for the lose
    /// time, but its mean over more readings falls back below the level.
    public func isAtFoundLevel(_ id: PeerID, at time: Timestamp) -> Bool {
        guard let level = tracks[id]?.level(at: time) else { return true }
        return level >= Double(range.found)
    }

    /// How many peers of `channel` heard since `since` are out of the room:
    /// "N more nearby, out of the room".
    public func outCount(in channel: Channel, heardSince since: Timestamp) -> Int {
        tracks.reduce(0) { count, entry in
            count + (entry.key.channel == channel && !entry.value.isIn && entry.value.lastHeard >= since ? 1 : 0)
        }
    }

    /// The same for every channel with someone out of the room.
    public func outCounts(heardSince since: Timestamp) -> [Channel: Int] {
        var counts: [Channel: Int] = [:]
        for (id, track) in tracks where !track.isIn && track.lastHeard >= since { counts[id.channel, default: 0] += 1 }
        return counts
    }

    /// Forgets peers not heard since `cutoff`.
    public mutating func forget(notHeardSince cutoff: Timestamp) {
        tracks = tracks.filter { $0.value.lastHeard >= cutoff }
    }

    private func judge(_ track: inout Track, at time: Timestamp) {
        guard let level = track.level(at: time) else { return }
        if level >= Double(range.found) {
            track.aboveSince = track.aboveSince ?? time
        } else {
            track.aboveSince = nil
        }
        if level < Double(range.lost) {
            track.belowSince = track.belowSince ?? time
        } else {
            track.belowSince = nil
        }
        if !track.isIn, let since = track.aboveSince, time - since >= Self.findAfter, track.readings.count >= Self.findReadings {
            track.isIn = true
        }
        if !track.isIn, let last = track.readings.last, last.rssi >= range.found + Self.clearlyAbove { track.isIn = true }
        if track.isIn, let since = track.belowSince, time - since >= Self.loseAfter { track.isIn = false }
    }

    private mutating func forgetOldest() {
        guard let oldest = tracks.min(by: { $0.value.lastHeard < $1.value.lastHeard })?.key else { return }
        tracks[oldest] = nil
    }
}

/// How far the room reaches (`--range`): the levels at which the floor
/// finds and loses a peer, in dBm.
///
/// From common figures for a laptop or phone: about -59 dBm at 1 m, -73 to
/// -76 at 5 m, -79 to -83 at 10 m indoors, a wall costing 4 (drywall) to 15
/// (concrete) dB, and readings swinging by 10 dB. Each lost level sits 6 to
/// 8 dB below its found level, so a swing does not drop someone found.
public enum SignalRange: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A desk or a small huddle, about 5 m: found at -70, lost below -78.
    /// Someone at 5 m (-73 to -76) is found as they come closer and kept.
    case near
    /// A meeting room, up to about 15 m: found at -88, lost below -95. The
    /// far end of a big room (-85 to -90) is found; a neighbour through a
    /// wall is often heard weaker (-90 to -98) and kept out.
    case room
    /// A hall or an open floor, beyond 20 m: found at -98, lost below -104,
    /// close to where a radio stops hearing at all.
    case hall

    /// The range's name, as `--range` takes it.
    public var description: String { rawValue }

    /// At or above this level a peer is found.
    public var found: Int {
        switch self {
        case .near: -70
        case .room: -88
        case .hall: -98
        }
    }

    /// Below this level for `SignalFloor.loseAfter` a peer is lost.
    public var lost: Int {
        switch self {
        case .near: -78
        case .room: -95
        case .hall: -104
        }
    }
}

/// How a person is heard: over the air, through the relay, or both. A
/// person is one row (channel and name) however many ways they are heard;
/// the table and `watch --json` say which.
public enum Hearing: String, Equatable, Sendable, CaseIterable {
    case air, relay, both
}

/// When a person was last heard over the air and through the relay, and
/// how strongly over the air.
public struct HeardPaths: Equatable, Sendable {
    public var air: Timestamp?
    public var relay: Timestamp?
    /// The strength of the air's receptions, when the radio gives one.
    public private(set) var signal: AirSignal?

    public init(air: Timestamp? = nil, relay: Timestamp? = nil) {
        self.air = air
        self.relay = relay
    }

    /// How long the person has gone unheard over the air at `now`, while
    /// that is short of `window` (the stale time); nil when never heard
    /// over the air, or stale: a quiet peer a scan can look for again.
    public func airQuiet(now: Timestamp, window: Duration) -> Duration? {
        guard let air, now - air < window else { return nil }
        return now - air
    }

    /// Notes a reception at `time`, through the relay or over the air (at
    /// `rssi` dBm when the radio gives it); `window` is the stale time.
    public mutating func heard(relayed: Bool, rssi: Int? = nil, at time: Timestamp, window: Duration) {
        if relayed {
            relay = time
            return
        }
        air = time
        guard let rssi else { return }
        if signal == nil { signal = AirSignal(rssi: rssi, at: time) } else { signal?.heard(rssi: rssi, at: time, window: window) }
    }

    /// Whether the person is heard clearly over the air at `now`: not
    /// through the relay alone (`hearing`), and not faintly when the radio
    /// gives a strength (`AirSignal`). Someone heard clearly here is taken
    /// to be heard by the room's other laptops too (docs/PROTOCOL.md,
    /// Ballot). Freshness is the peer table's: a person gone quiet is stale
    /// at its next tick, not unclear before it.
    public func isHeardClearly(now: Timestamp, window: Duration) -> Bool {
        hearing(now: now, window: window) != .relay && signal?.isFaint != true
    }

    /// How the person is heard at `now`: a way counts while it was used
    /// within `window` (the stale time; the relay hands every packet on
    /// again well within it). When neither is that recent, the later one
    /// says how the person was last heard.
    public func hearing(now: Timestamp, window: Duration) -> Hearing {
        let airFresh = air.map { now - $0 <= window } ?? false
        let relayFresh = relay.map { now - $0 <= window } ?? false
        switch (airFresh, relayFresh) {
        case (true, true): return .both
        case (true, false): return .air
        case (false, true): return .relay
        case (false, false):
            guard let relay else { return .air }
            guard let air else { return .relay }
            return relay > air ? .relay : .air
        }
    }
}

import EstimatorKit

/// What happens to a session, as its executor (`Session`) feeds it to the
/// core (`SessionCore.take`), at the time it happened.
package enum SessionEvent: Sendable {
    /// A control request. A `round` that names no story, or names one,
    /// comes with the backlog as read just now (`BacklogRead`); the
    /// executor answers `watch` and `leave` itself.
    case request(ControlRequest, backlog: BacklogRead = .none)
    /// A local name heard over the air or through the relay.
    case heard(Heard)
    /// The periodic tick: peers turn stale and go (`Room.tick`).
    case tick
    /// The backlog as read for `round`, begun elsewhere
    /// (`SessionAction.readBacklog`).
    case backlog(BacklogRead, for: RoundNumber)
    /// The local name last taken with `SessionCore.goingOnAir` for an
    /// update of the advertisement is on the air.
    case wentOnAir
    /// The reveal timer `id` ran out (`SessionAction.armTimer`).
    case timerRanOut(id: Int)
    /// The radio works again after a start (`seals`: it changes what it
    /// says while scanning, so my vote can stay sealed until the reveal).
    case radioWorks(seals: Bool)
    /// The radio stopped working; `problem` says why, in words.
    case radioFailed(problem: String)
    /// The relay is starting, in words, before it reports its connection
    /// to the broker itself (`ControlRequest.relay`).
    case relay(String)
    /// The relay process ended and starts again; `state` says when. The
    /// relay counts as down from then until it reports being connected.
    case relayRestarting(String)
    /// The relay process started again after it ended.
    case relayRestarted
    /// Which receptions the executor wants to hear of (its watchers).
    case forward(SessionCore.Forwarding)
    /// The executor tried to save the history: since when changes are not
    /// saved (the first unsaved one) and why, in one sentence; nil since
    /// when everything is saved.
    case historySaved(unsavedSince: Timestamp?, reason: String?)
    /// Leaving starts: my card is taken back, requests are refused from now.
    case leaving
}

/// A local name heard, as the radio or the relay passes it on.
package struct Heard: Equatable, Sendable {
    package let localName: [UInt8]
    package let rssi: Int?
    /// Whether it came through the relay.
    package let relayed: Bool
    /// The device it came from over the air, when the radio names it.
    package let advertiser: Advertiser?
    /// What came with the local name of the sender's meeting
    /// (docs/PROTOCOL.md, Meeting): one part over the air, the whole meeting
    /// through the relay; empty when nothing came.
    package let meeting: [UInt8]

    package init(localName: [UInt8], rssi: Int?, relayed: Bool = false, advertiser: Advertiser? = nil,
                 meeting: [UInt8] = []) {
        self.localName = localName
        self.rssi = rssi
        self.relayed = relayed
        self.advertiser = advertiser
        self.meeting = meeting
    }
}

/// The backlog as the executor read it for a `round` request, or for a
/// round begun elsewhere (`SessionAction.readBacklog`).
package enum BacklogRead: Sendable {
    /// No backlog was read (any request but `round`).
    case none
    /// The stories and which have an agreed estimate; nil without a backlog.
    case read(BacklogProgress?)
    /// The backlog file could not be read.
    case failed(UserError)
}

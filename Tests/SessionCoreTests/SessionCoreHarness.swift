import EstimatorKit
import SessionCore
import Testing

/// A session core driven event by event, its time moved by the test: Me in
/// channel 1 (card 8 is `08`), and what each event asked.
struct SessionCoreHarness {
    static let channel = Channel(rawValue: 1)
    /// Clock times in UTC (`22:13`), so the answers read the same anywhere.
    @Sendable static func clockTime(_ time: Timestamp) -> String { String(RFC3339.string(time).dropFirst(11).prefix(5)) }
    var core: SessionCore
    private(set) var now = Timestamp(secondsSince1970: 1_700_000_000)

    /// `listening`: still in the first listen of a session that just
    /// joined, which joins the round it hears as it runs. `findingRoom`:
    /// given no channel, the session finds its room (listening 6 s) with
    /// these draws, and the test moves it on from its start. `range`: the
    /// signal floor's, none by default (every reception counts).
    init(name: String = "Me", observing: Bool = false, deck: Deck = .app, radioless: Bool = false, seals: Bool = false,
         listening: Bool = false, range: SignalRange? = nil, findingRoom draw: RoomChoice.Draw? = nil) {
        let setup = SessionCore.Setup(adapter: radioless ? "none" : "hci0", radioless: radioless, pid: 42,
                                      lookAgainAfter: .seconds(2), roomListening: .seconds(6),
                                      draw: draw ?? { _ in Issue.record("nothing to draw"); return 1 }, clockTime: Self.clockTime)
        core = SessionCore(setup, channel: draw == nil ? Self.channel : nil, name: try! PersonName.parse(name).name,
                           observing: observing, deck: deck, room: Room(range: range), now: now)
        _ = core.take(.radioWorks(seals: seals), at: now)
        // Past the first listen of a session that just joined, which
        // decides no reveal (docs/PROTOCOL.md, Rounds).
        if !listening, draw == nil { advance(by: .seconds(5)) }
    }

    /// Gives the core `event` now.
    @discardableResult
    mutating func take(_ event: SessionEvent) -> [SessionAction] { core.take(event, at: now) }

    /// A control request; its answer.
    @discardableResult
    mutating func ask(_ request: ControlRequest, backlog: BacklogRead = .none) -> (reply: ControlReply?, actions: [SessionAction]) {
        let actions = take(.request(request, backlog: backlog))
        let replies = actions.compactMap { if case let .reply(reply) = $0 { reply } else { nil } }
        return (replies.last, actions)
    }

    /// Puts what the room has me say on the air, as the executor's update
    /// of the advertisement does; what the core answers once it is there.
    @discardableResult
    mutating func putOnAir() -> [SessionAction] {
        _ = core.goingOnAir(now: now)
        return take(.wentOnAir)
    }

    /// The answers the actions give to requests left waiting, by id.
    static func answers(_ actions: [SessionAction]) -> [Int: String] {
        Dictionary(uniqueKeysWithValues: actions.compactMap { if case let .answer(id, reply) = $0 { (id, reply.message) } else { nil } })
    }

    /// The ids of the requests whose answer the actions leave waiting.
    static func waiting(_ actions: [SessionAction]) -> [Int] {
        actions.compactMap { if case let .answerLater(id) = $0 { id } else { nil } }
    }

    /// A local name heard over the air at `rssi` dBm (or through the relay).
    @discardableResult
    mutating func hear(_ localName: String, rssi: Int = -50, relayed: Bool = false, meeting: [UInt8] = []) -> [SessionAction] {
        take(.heard(Heard(localName: Array(localName.utf8), rssi: relayed ? nil : rssi, relayed: relayed, meeting: meeting)))
    }

    /// A complete meeting heard from `peer` for `round`, as the air's
    /// codec hands it over.
    @discardableResult
    mutating func heardMeeting(_ meeting: RoundMeeting, round: Int, from peer: PeerID) -> [SessionAction] {
        core.heardMeeting(meeting, round: RoundNumber(wrapping: round), from: peer, now: now)
    }

    /// Moves time on by `duration`.
    mutating func advance(by duration: Duration) { now = now + duration }

    /// My channel's table as a `watch` attaching now is told it
    /// (`SessionCore.watchCatchUp`), asked of a copy: a catch-up moves the
    /// core's watch on, which would hide changes from the test's later
    /// lines.
    func watchedTable() -> WatchTable? {
        var attaching = core
        return attaching.watchCatchUp(now: now).lazy.compactMap { line -> WatchTable? in
            if case let .table(table) = line, table.channel == Self.channel { table } else { nil }
        }.first
    }

    /// What the room has me say now.
    var onAir: String { String(decoding: core.localName(now: now), as: UTF8.self) }

    /// The revealed rounds the actions report.
    static func records(_ actions: [SessionAction]) -> [RevealedRound] {
        actions.compactMap { if case let .record(round) = $0 { round } else { nil } }
    }

    /// The timers the actions arm.
    static func timers(_ actions: [SessionAction]) -> [(id: Int, after: Duration)] {
        actions.compactMap { if case let .armTimer(id, after) = $0 { (id, after) } else { nil } }
    }
}

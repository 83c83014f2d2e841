import EstimatorKit
import Relay

/// The poker side of the relay: which packets go to which topics, and which
/// messages from the broker become packets for the session
/// (docs/ARCHITECTURE.md, Relay). A payload is a local name, then a 0x00
/// and its sender's meeting when one comes (`RelayPayload`): the bridge
/// reads the local name's packet and passes the rest on unread. Pure: the loop feeds it the session's
/// lines, the broker's messages and the time, and carries out what it
/// returns.
///
/// Topics: `estimator/1/ROOM/CHANNEL/ID` holds my packet (retained; the
/// last will clears it), `…/ID/fwd/HASH` the packets of people this
/// session hears over the air, cleared when they turn stale here.
///
/// Presence expires: everything published goes with an expiry
/// (`presenceExpiry`) and again every `presenceRefresh` while it holds, so
/// the broker drops by itself what a killed relay left. A presence heard
/// without an expiry, or with one longer than any bridge gives
/// (`maximumPresenceExpiry`), is nobody here: a retained message kept for
/// good is how thousands of fake people would fill the room. One that
/// runs out unrefreshed is no longer handed on. A topic is one person: a
/// name changed on it leaves under the old one.
package struct RelayBridge {
    /// Something for the loop to do.
    package enum Action: Hashable {
        /// Publish retained at QoS 1; an empty payload clears the topic.
        /// With `expiry`, the broker drops the message once it is that old.
        case publish(topic: String, payload: [UInt8], expiry: Duration? = nil)
        /// Make the last will clear `topic` from the next connection on.
        case will(topic: String)
        /// Connect again, so that a new will applies.
        case reconnect
        /// Hand the session a packet heard from the broker.
        case relay([UInt8])
    }

    /// Longest payload taken from the broker: a local name and a whole meeting.
    package static let maximumPayload = ControlRequest.maximumRelayedLength
    /// Most topics kept from the broker; more are dropped until some clear.
    package static let maximumRemoteTopics = 1024
    /// The longest expiry a presence heard may carry and count: three of
    /// the longest refresh a bridge uses (`presenceRefresh`).
    package static let maximumPresenceExpiry: Duration = .seconds(30)
    /// How often the packets from the broker are handed to the session
    /// again: the broker sends a retained packet once, and the session's
    /// table turns a peer stale after its stale time (6 s) unheard. A third
    /// of it, at most 2 s.
    var refreshInterval: Duration { min(.seconds(2), staleAfter / 3) }

    /// The room: the broker URL's path, one topic level.
    let room: String
    /// This session's id on the broker (random, per run).
    let id: String
    /// How long an air peer stays forwarded after it was last heard here.
    let staleAfter: Duration
    /// How often what I publish goes again, while it holds: every 10 s,
    /// or the stale time if shorter (an air peer's packet is refreshed in
    /// it, and a topic must not run out while its person is heard).
    var presenceRefresh: Duration { min(staleAfter, .seconds(10)) }
    /// How long the broker keeps what I publish: three refreshes, so a late
    /// refresh or two lose nothing, and what a killed relay left is gone
    /// soon.
    var presenceExpiry: Duration { presenceRefresh * 3 }

    /// The channel my topic is under: the session's, as `me` last said.
    private(set) var channel: Channel
    /// My payload as last published, republished on each connection.
    private(set) var mine: [UInt8]?
    /// When my payload was last published, for its refresh.
    private var minePublished: ContinuousClock.Instant?
    private var myName: String?

    private struct Forwarded {
        var topic: String
        var payload: [UInt8]
        var lastHeard: ContinuousClock.Instant
        var lastPublished: ContinuousClock.Instant
    }
    private var forwarded: [PeerID: Forwarded] = [:]

    private struct Remote {
        var publisher: String
        var isForwarded: Bool
        var packet: Packet
        var payload: [UInt8]
        /// When the broker drops it, unless its publisher refreshes it.
        var until: ContinuousClock.Instant
    }
    private var remote: [String: Remote] = [:]
    private var lastRefresh: ContinuousClock.Instant?

    /// A bridge for `room` (one topic level), publishing as `id` on
    /// `channel` until `me` moves it, forwarding air peers until they are
    /// `staleAfter` unheard.
    package init(room: String, id: String, channel: Channel, staleAfter: Duration) {
        self.room = room
        self.id = id
        self.channel = channel
        self.staleAfter = staleAfter
    }

    /// The room's topics: `estimator/1/ROOM`.
    var prefix: String { "estimator/1/\(room)" }
    /// Where my packet goes, and what my last will clears.
    package var myTopic: String { "\(prefix)/\(channel.rawValue)/\(id)" }
    /// Every topic of the room, mine and forwarded ones included.
    package var subscription: String { "\(prefix)/#" }

    // MARK: From the session

    /// Who I am or what I put on the air changed: publish my payload (my
    /// packet as it goes on the air, and my meeting), and move topics with
    /// my channel.
    package mutating func me(channel newChannel: Channel, name: String, payload packet: [UInt8],
                             now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        if newChannel != channel {
            actions.append(.publish(topic: myTopic, payload: []))
            channel = newChannel
            actions += [.will(topic: myTopic), .reconnect]
        }
        myName = name
        guard !packet.isEmpty, packet != mine || actions.contains(.reconnect) else { return actions }
        mine = packet
        minePublished = now
        actions.append(.publish(topic: myTopic, payload: packet, expiry: presenceExpiry))
        return actions
    }

    /// A packet the session heard. Air peers are forwarded; packets that
    /// came from the broker never go back to it.
    package mutating func heard(_ localName: [UInt8], relayed: Bool, now: ContinuousClock.Instant) -> [Action] {
        guard !relayed, localName.count <= RelayPayload.maximumLocalName, let packet = try? Packet(decoding: localName)
        else { return [] }
        let peer = PeerID(channel: packet.channel, name: packet.name)
        guard !(packet.channel == channel && packet.name == myName) else { return [] }
        if packet.card == .none {
            guard let gone = forwarded.removeValue(forKey: peer) else { return [] }
            return [.publish(topic: gone.topic, payload: [])]
        }
        if var known = forwarded[peer] {
            known.lastHeard = now
            let changed = known.payload != localName
            known.payload = localName
            if changed { known.lastPublished = now }
            forwarded[peer] = known
            return changed ? [.publish(topic: known.topic, payload: localName, expiry: presenceExpiry)] : []
        }
        // Someone already brings this person to the broker (another bridge,
        // or the person's own relay): one copy is enough.
        if remote.values.contains(where: { $0.packet.channel == packet.channel && $0.packet.name == packet.name }) {
            return []
        }
        let topic = "\(prefix)/\(packet.channel.rawValue)/\(id)/fwd/\(Self.hash(packet))"
        forwarded[peer] = Forwarded(topic: topic, payload: localName, lastHeard: now, lastPublished: now)
        return [.publish(topic: topic, payload: localName, expiry: presenceExpiry)]
    }

    /// The session is ending: clear everything published.
    package mutating func leave() -> [Action] {
        var actions: [Action] = [.publish(topic: myTopic, payload: [])]
        for entry in forwarded.values { actions.append(.publish(topic: entry.topic, payload: [])) }
        forwarded = [:]
        mine = nil
        return actions
    }

    // MARK: From the broker

    /// The broker connection is gone: what it had is no longer known, so it
    /// is no longer handed to the session, whose table turns those peers
    /// stale as it would a silent radio. A new connection's subscription
    /// brings the retained packets again.
    package mutating func disconnected() {
        remote = [:]
    }

    /// Connected (again): everything I publish, once more (a restarted
    /// broker may have lost it).
    package func republish() -> [Action] {
        var actions: [Action] = []
        if let mine { actions.append(.publish(topic: myTopic, payload: mine, expiry: presenceExpiry)) }
        for entry in forwarded.values {
            actions.append(.publish(topic: entry.topic, payload: entry.payload, expiry: presenceExpiry))
        }
        return actions
    }

    /// A message from the broker. Everything about it is untrusted: the
    /// topic's shape, the channel in it against the packet's, the packet,
    /// its expiry.
    package mutating func received(_ message: BrokerMessage, now: ContinuousClock.Instant) -> [Action] {
        guard let levels = Topic.levels(message.topic), levels.count == 5 || levels.count == 7,
              levels[0] == "estimator", levels[1] == "1", levels[2] == room,
              let topicChannel = UInt8(levels[3]), String(topicChannel) == levels[3],
              Topic.isValidLevel(String(levels[4])), levels[4] != id
        else { return [] }
        let isForwarded = levels.count == 7
        if isForwarded { guard levels[5] == "fwd", Topic.isValidLevel(String(levels[6])) else { return [] } }
        let topic = String(decoding: message.topic, as: UTF8.self)
        let publisher = String(levels[4])
        // A leaving person (or a session whose last will was sent).
        if message.payload.isEmpty { return forget(topic) }
        let localName = RelayPayload(splitting: message.payload).localName
        guard message.payload.count <= Self.maximumPayload, localName.count <= RelayPayload.maximumLocalName,
              let packet = try? Packet(decoding: localName), packet.channel.rawValue == topicChannel
        else { return [] }
        // Nobody live keeps a presence without an expiry, or a longer one.
        guard let expiry = message.expiry, expiry > .zero, expiry <= Self.maximumPresenceExpiry else { return forget(topic) }
        var actions: [Action] = []
        if let known = remote[topic], known.packet.name != packet.name {
            actions = forget(topic)
        }
        guard remote[topic] != nil || remote.count < Self.maximumRemoteTopics else { return actions }
        remote[topic] = Remote(publisher: publisher, isForwarded: isForwarded, packet: packet, payload: message.payload,
                               until: now + expiry)
        return actions + (isPresent(remote[topic]!) ? [.relay(message.payload)] : [])
    }

    /// Forgets what `topic` held. The person of a publisher's own topic
    /// leaves (card none makes the session drop the row at once); a
    /// forwarded one is left to the session's stale time, since others may
    /// still hear the person.
    private mutating func forget(_ topic: String) -> [Action] {
        guard let gone = remote.removeValue(forKey: topic), !gone.isForwarded else { return [] }
        var leaving = gone.packet
        leaving.card = .none
        return [.relay(Array(leaving.localName.utf8))]
    }

    /// A forwarded packet counts only while its forwarder is present: a
    /// bridge killed with `kill -9` has its own topic cleared by its last
    /// will at once, while what it forwarded stays until its expiry.
    private func isPresent(_ entry: Remote) -> Bool {
        guard entry.isForwarded else { return true }
        return remote.values.contains { !$0.isForwarded && $0.publisher == entry.publisher }
    }

    // MARK: Time

    /// Clears forwarded peers not heard for the stale time and publishes
    /// the others and mine again every `presenceRefresh` (before their
    /// expiry), forgets the broker's packets that ran out unrefreshed, and
    /// hands the session the others again every `refreshInterval`.
    package mutating func tick(now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        if let mine, let published = minePublished, now - published >= presenceRefresh {
            minePublished = now
            actions.append(.publish(topic: myTopic, payload: mine, expiry: presenceExpiry))
        }
        // Nearly every tick nothing ran out: no copy of the topics then.
        if remote.values.contains(where: { $0.until <= now }) { remote = remote.filter { $0.value.until > now } }
        for (peer, entry) in forwarded {
            if now - entry.lastHeard > staleAfter {
                forwarded[peer] = nil
                actions.append(.publish(topic: entry.topic, payload: []))
            } else if now - entry.lastPublished >= presenceRefresh {
                forwarded[peer]?.lastPublished = now
                actions.append(.publish(topic: entry.topic, payload: entry.payload, expiry: presenceExpiry))
            }
        }
        if lastRefresh.map({ now - $0 >= refreshInterval }) ?? true {
            lastRefresh = now
            for entry in remote.values where isPresent(entry) { actions.append(.relay(entry.payload)) }
        }
        return actions
    }

    /// The last topic level of a forwarded peer: FNV-1a of channel and name,
    /// so the topic never carries the (untrusted) name itself.
    static func hash(_ packet: Packet) -> String {
        let value = FNV1a.hash64([packet.channel.rawValue] + Array(packet.name.utf8))
        return Hex.text((0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) })
    }
}

/// Which device is which app user (docs/PROTOCOL.md, Peers).
///
/// The app sends a name and nothing else that tells people apart, and an
/// iPhone cuts it to 8 bytes, so Alice and Alex both arrive as `Al`. App
/// users are told apart by the device their advertisement comes from, and
/// one iPhone stays one app user when its random address changes:
/// - a device already known is the app user it was;
/// - a new device with a name no app user of its channel has is a new app
///   user;
/// - a new device with the name of an app user whose device has been quiet
///   for `moveAfter` is that app user: the phone changed its address;
/// - otherwise the new device is held, its packets unshown. It is a new app
///   user once every app user of its name has been heard at once with it
///   (their devices heard while it was: two phones), and the app user it
///   moved from once one of them, quiet since it appeared, has been quiet
///   for `moveAfter`. A held device itself quiet for `moveAfter` is gone,
///   whoever it was: a phone's address in between two, or a phone gone.
///
/// One namesake heard is not enough, nor a namesake heard from a device
/// newer than the held one: with Alice and Alex both `Al`, Alice's new
/// address must not become a third row when Alex is heard, and an
/// advertiser that changes its address often must stay one row.
///
/// Pure and clock-free, like `PeerTable`. Memory: a binding per app user
/// the table keeps, and at most `heldLimit` held devices.
struct AppUsers: Sendable {
    /// A device unheard this long has most likely gone: a phone that
    /// changes its address is heard under the new one within a scan restart
    /// (1.5 s ± 0.5 s), and the app itself drops a peer after 3 s.
    static let moveAfter: Duration = .seconds(3)
    /// Most new devices held at once; more are ignored until some resolve.
    static let heldLimit = 64

    private struct Binding: Sendable {
        var device: String
        /// When the device was first heard.
        var since: Timestamp
        var lastHeard: Timestamp
    }

    private struct Held: Sendable {
        /// When the device was first heard.
        let since: Timestamp
        var packet: Packet
        var rssi: Int?
        /// When it was last heard.
        var time: Timestamp
    }

    private var bindings: [PeerID: Binding] = [:]
    private var users: [String: PeerID] = [:]
    private var held: [String: Held] = [:]

    /// Whether a new device is held until it is known who it is: time
    /// decides that (`moveAfter`).
    var isHolding: Bool { !held.isEmpty }

    /// The names of `channel`'s held devices: an app user of that name may
    /// have a new card on its way (a new address, not yet known as theirs).
    func heldNames(in channel: Channel) -> Set<String> {
        Set(held.values.filter { $0.packet.channel == channel }.map(\.packet.name))
    }

    /// The device app user `id` is heard from now.
    func device(of id: PeerID) -> String? { bindings[id]?.device }

    /// Takes `packet`, heard from `device`; returns the sightings it makes,
    /// in order: its own (unless held), and those of held devices it shows
    /// to be someone else.
    mutating func hear(_ packet: Packet, from device: String, rssi: Int?, at time: Timestamp) -> [PeerSighting] {
        if let id = users[device] {
            if Self.sameName(id, packet) {
                bindings[id]?.lastHeard = time
                return [PeerSighting(packet, appUser: id.appUser, rssi: rssi, time: time)] + resolveHeld(like: packet, now: time)
            }
            // The device sends another name now: it is someone new.
            forget(id)
        }
        if var waiting = held[device], Self.sameName(waiting.packet, packet) {
            (waiting.packet, waiting.rssi, waiting.time) = (packet, rssi, time)
            held[device] = waiting
            return resolve(device, now: time).map { [$0] } ?? []
        }
        let arrival = Held(since: time, packet: packet, rssi: rssi, time: time)
        held[device] = nil
        switch decide(arrival, now: time) {
        case .unknown where held.count < Self.heldLimit: held[device] = arrival
        case .unknown, .gone: break
        case let .moved(id): return [rebind(id, to: device, arrival)]
        case .new: return [bind(device, arrival)]
        }
        return []
    }

    /// Resolves held devices whose namesakes have gone quiet or gone, and
    /// forgets those gone quiet themselves: the sightings they make, in
    /// the order the devices were first heard.
    mutating func tick(now: Timestamp) -> [PeerSighting] {
        heldInOrder.compactMap { resolve($0, now: now) }
    }

    /// The held `device`'s sighting once it is known who it is at `now`
    /// (see `decide`); nil while it stays held, or when it is gone.
    private mutating func resolve(_ device: String, now: Timestamp) -> PeerSighting? {
        guard let waiting = held[device] else { return nil }
        let decision = decide(waiting, now: now)
        if decision != .unknown { held[device] = nil }
        switch decision {
        case .unknown, .gone: return nil
        case let .moved(id): return rebind(id, to: device, waiting)
        case .new: return bind(device, waiting)
        }
    }

    /// Who a new device is.
    private enum Decision: Equatable {
        /// Not known yet: held.
        case unknown
        /// Quiet for `moveAfter` before anyone knew: forgotten.
        case gone
        /// App user `id`, moved to it.
        case moved(PeerID)
        /// A new app user.
        case new
    }

    /// Who a device first heard at `waiting.since`, last at `waiting.time`,
    /// is at `now`: the app user it moved from, when one of its name quiet
    /// since before it appeared has been quiet for `moveAfter` (the longest
    /// quiet); a new app user, when every app user of its name was heard
    /// at once with it (none could have moved to it); gone, when it has
    /// itself been quiet for `moveAfter`; else not known yet.
    private func decide(_ waiting: Held, now: Timestamp) -> Decision {
        let namesakes = self.namesakes(of: waiting.packet)
        let quiet = namesakes.filter { $0.value.lastHeard < waiting.since }
        if let moved = quiet.filter({ now - $0.value.lastHeard >= Self.moveAfter })
            .min(by: { $0.value.lastHeard < $1.value.lastHeard }) {
            return .moved(moved.key)
        }
        let atOnce = namesakes.values.allSatisfy { $0.since <= waiting.time && waiting.since <= $0.lastHeard }
        if atOnce { return .new }
        return now - waiting.time >= Self.moveAfter ? .gone : .unknown
    }

    /// An app user named like `packet` was heard at `time`: the held devices
    /// of that name it settles.
    private mutating func resolveHeld(like packet: Packet, now time: Timestamp) -> [PeerSighting] {
        heldInOrder.filter { held[$0].map { Self.sameName($0.packet, packet) } ?? false }
            .compactMap { resolve($0, now: time) }
    }

    /// The held devices in the order they were first heard.
    private var heldInOrder: [String] {
        held.sorted { ($0.value.since, $0.key) < ($1.value.since, $1.key) }.map(\.key)
    }

    /// Forgets app user `id`: it left, or the table does not keep it.
    mutating func forget(_ id: PeerID) {
        guard let binding = bindings.removeValue(forKey: id) else { return }
        if users[binding.device] == id { users[binding.device] = nil }
    }

    private func namesakes(of packet: Packet) -> [PeerID: Binding] {
        bindings.filter { Self.sameName($0.key, packet) }
    }

    /// A new app user for `device`: the lowest number its name has free.
    private mutating func bind(_ device: String, _ waiting: Held) -> PeerSighting {
        let packet = waiting.packet
        let taken = Set(namesakes(of: packet).keys.compactMap(\.appUser))
        let number = (1...).first { !taken.contains($0) }!
        let id = PeerID(sender: packet, appUser: number)
        bindings[id] = Binding(device: device, since: waiting.since, lastHeard: waiting.time)
        users[device] = id
        return PeerSighting(packet, appUser: number, rssi: waiting.rssi, time: waiting.time)
    }

    /// App user `id` is `device` now: its phone changed its address.
    private mutating func rebind(_ id: PeerID, to device: String, _ waiting: Held) -> PeerSighting {
        if let old = bindings[id]?.device, users[old] == id { users[old] = nil }
        bindings[id] = Binding(device: device, since: waiting.since, lastHeard: waiting.time)
        users[device] = id
        return PeerSighting(waiting.packet, appUser: id.appUser, rssi: waiting.rssi, time: waiting.time)
    }

    private static func sameName(_ id: PeerID, _ packet: Packet) -> Bool {
        id.channel == packet.channel && id.name == packet.name && id.isNameCut == packet.isNameCut
    }

    private static func sameName(_ a: Packet, _ b: Packet) -> Bool {
        a.channel == b.channel && a.name == b.name && a.isNameCut == b.isNameCut
    }
}

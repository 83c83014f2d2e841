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
///   user once every app user of its name has been heard since it appeared
///   (two phones at once), and the app user it moved from once one of
///   those quiet since it appeared has been quiet for `moveAfter`. One
///   namesake heard again is not enough: with Alice and Alex both `Al`,
///   Alice's new address must not become a third row when Alex is heard.
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
        var lastHeard: Timestamp
    }

    private struct Held: Sendable {
        /// When the device was first heard.
        let since: Timestamp
        var packet: Packet
        var rssi: Int?
        var time: Timestamp
    }

    private var bindings: [PeerID: Binding] = [:]
    private var users: [String: PeerID] = [:]
    private var held: [String: Held] = [:]

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
        if let sighting = decide(device, arrival, now: time) { return [sighting] }
        if held.count < Self.heldLimit { held[device] = arrival }
        return []
    }

    /// Resolves held devices whose namesakes have gone quiet or gone: the
    /// sightings they make, in the order the devices were first heard.
    mutating func tick(now: Timestamp) -> [PeerSighting] {
        heldInOrder.compactMap { resolve($0, now: now) }
    }

    /// The held `device`'s sighting once it is known who it is at `now`
    /// (see `decide`); nil while it stays held.
    private mutating func resolve(_ device: String, now: Timestamp) -> PeerSighting? {
        guard let waiting = held[device], let sighting = decide(device, waiting, now: now) else { return nil }
        held[device] = nil
        return sighting
    }

    /// Who `device`, heard first at `waiting.since`, is at `now`: a new app
    /// user when no app user of its name has been quiet since before then
    /// (none could have moved to it), the one it moved from when such a
    /// one has been quiet for `moveAfter` (the longest quiet), else nobody
    /// yet.
    private mutating func decide(_ device: String, _ waiting: Held, now: Timestamp) -> PeerSighting? {
        let quiet = namesakes(of: waiting.packet).filter { $0.value.lastHeard < waiting.since }
        if quiet.isEmpty { return bind(device, waiting.packet, rssi: waiting.rssi, at: waiting.time) }
        guard let moved = quiet.filter({ now - $0.value.lastHeard >= Self.moveAfter })
            .min(by: { $0.value.lastHeard < $1.value.lastHeard })
        else { return nil }
        return rebind(moved.key, to: device, waiting.packet, rssi: waiting.rssi, at: waiting.time)
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
    private mutating func bind(_ device: String, _ packet: Packet, rssi: Int?, at time: Timestamp) -> PeerSighting {
        let taken = Set(namesakes(of: packet).keys.compactMap(\.appUser))
        let number = (1...).first { !taken.contains($0) }!
        let id = PeerID(channel: packet.channel, name: packet.name, isNameCut: packet.isNameCut, appUser: number)
        bindings[id] = Binding(device: device, lastHeard: time)
        users[device] = id
        return PeerSighting(packet, appUser: number, rssi: rssi, time: time)
    }

    private mutating func rebind(_ id: PeerID, to device: String, _ packet: Packet, rssi: Int?, at time: Timestamp)
        -> PeerSighting
    {
        if let old = bindings[id]?.device, users[old] == id { users[old] = nil }
        bindings[id] = Binding(device: device, lastHeard: time)
        users[device] = id
        return PeerSighting(packet, appUser: id.appUser, rssi: rssi, time: time)
    }

    private static func sameName(_ id: PeerID, _ packet: Packet) -> Bool {
        id.channel == packet.channel && id.name == packet.name && id.isNameCut == packet.isNameCut
    }

    private static func sameName(_ a: Packet, _ b: Packet) -> Bool {
        a.channel == b.channel && a.name == b.name && a.isNameCut == b.isNameCut
    }
}

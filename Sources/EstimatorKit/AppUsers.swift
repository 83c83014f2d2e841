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
/// - otherwise the new device is held, its packets unshown, until one of
///   those app users' devices is heard again (two phones at once: it is a
///   new app user) or has been quiet for `moveAfter` (it is that app user,
///   moved).
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
                return [PeerSighting(packet, appUser: id.appUser, rssi: rssi, time: time)] + releaseOthers(of: id, heardAt: time)
            }
            // The device sends another name now: it is someone new.
            forget(id)
        }
        if var waiting = held[device], Self.sameName(waiting.packet, packet) {
            (waiting.packet, waiting.rssi, waiting.time) = (packet, rssi, time)
            held[device] = waiting
            return resolve(device, now: time).map { [$0] } ?? []
        }
        held[device] = nil
        let namesakes = self.namesakes(of: packet)
        if namesakes.isEmpty { return [bind(device, packet, rssi: rssi, at: time)] }
        if let moved = namesakes.filter({ time - $0.value.lastHeard >= Self.moveAfter })
            .min(by: { $0.value.lastHeard < $1.value.lastHeard }) {
            return [rebind(moved.key, to: device, packet, rssi: rssi, at: time)]
        }
        if held.count < Self.heldLimit { held[device] = Held(since: time, packet: packet, rssi: rssi, time: time) }
        return []
    }

    /// Resolves held devices whose namesakes have gone quiet or gone: the
    /// sightings they make, in the order the devices were first heard.
    mutating func tick(now: Timestamp) -> [PeerSighting] {
        held.sorted { ($0.value.since, $0.key) < ($1.value.since, $1.key) }.compactMap { resolve($0.key, now: now) }
    }

    /// The held `device`'s sighting once it is known who it is at `now`:
    /// a new app user when its name has none left, the namesake it moved
    /// from when that one has been quiet since before it and for `moveAfter`.
    private mutating func resolve(_ device: String, now: Timestamp) -> PeerSighting? {
        guard let waiting = held[device] else { return nil }
        let namesakes = self.namesakes(of: waiting.packet)
        if namesakes.isEmpty {
            held[device] = nil
            return bind(device, waiting.packet, rssi: waiting.rssi, at: waiting.time)
        }
        guard let moved = namesakes
            .filter({ $0.value.lastHeard < waiting.since && now - $0.value.lastHeard >= Self.moveAfter })
            .min(by: { $0.value.lastHeard < $1.value.lastHeard })
        else { return nil }
        held[device] = nil
        return rebind(moved.key, to: device, waiting.packet, rssi: waiting.rssi, at: waiting.time)
    }

    /// Forgets app user `id`: it left, or the table does not keep it.
    mutating func forget(_ id: PeerID) {
        guard let binding = bindings.removeValue(forKey: id) else { return }
        if users[binding.device] == id { users[binding.device] = nil }
    }

    /// App user `id`'s device was heard at `time`: every device held for
    /// its name since before then belongs to someone else.
    private mutating func releaseOthers(of id: PeerID, heardAt time: Timestamp) -> [PeerSighting] {
        var sightings: [PeerSighting] = []
        for (device, waiting) in held.sorted(by: { ($0.value.since, $0.key) < ($1.value.since, $1.key) })
        where waiting.since < time && Self.sameName(id, waiting.packet) {
            held[device] = nil
            sightings.append(bind(device, waiting.packet, rssi: waiting.rssi, at: waiting.time))
        }
        return sightings
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

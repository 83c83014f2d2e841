/// A reception's person: their signal and how they are heard, for a watch
/// to move that row's signal and age on between two tables.
public struct WatchSighting: Equatable, Sendable {
    public let id: PeerID
    public let rssi: Int?
    public let heard: Hearing

    public init(id: PeerID, rssi: Int?, heard: Hearing) {
        self.id = id
        self.rssi = rssi
        self.heard = heard
    }

    var json: JSONValue {
        var members = [
            JSONMember("channel", .int(Int(id.channel.rawValue))), JSONMember("name", .string(id.name)),
            JSONMember("rssi", rssi.map(JSONValue.int) ?? .null),
        ]
        if heard != .air { members.append(JSONMember("heard", .string(heard.rawValue))) }
        if id.isNameCut { members.append(JSONMember("cut", true)) }
        if let appUser = id.appUser { members.append(JSONMember("app", .int(appUser))) }
        return .object(members)
    }

    init?(json: JSONValue) {
        guard let channel = json["channel"]?.integer.flatMap(UInt8.init(exactly:)), let name = json["name"]?.string,
              let rssi = json["rssi"], rssi == .null || rssi.integer != nil,
              let heard = json["heard"].map({ $0.string.flatMap(Hearing.init(rawValue:)) }) ?? .air
        else { return nil }
        self.init(id: PeerID(channel: Channel(rawValue: channel), name: name, isNameCut: json["cut"] == true,
                             appUser: json["app"]?.integer),
                  rssi: rssi.integer, heard: heard)
    }
}

/// One line of the stream a session sends after accepting a `watch`
/// request. A `watch` client gets who I am (`me`), each channel's table as
/// the session decided it (`table`), the changes it decided (`change`) and
/// each reception's signal (`seen`); it keeps no room of its own. The
/// relay gets `me` and the receptions themselves (`heard`).
public enum ControlWatchLine: Equatable, Sendable {
    /// Who I am now: my channel, name and adapter, whether someone else
    /// here has my name, the local name I put on the air (which says
    /// whether I hold the reveal, docs/PROTOCOL.md, Ballot: the relay
    /// publishes it as it is), my round's meeting whole
    /// (`RelayPayload.encodeMeeting`: the relay publishes it after my
    /// local name), since when my relay has been down (nil while it is
    /// connected, and without a relay) and since when the history is not
    /// saved (nil while it is); sent first and after every change.
    /// A watch reads who and where I am, my adapter, the name taken and the
    /// relay's outage (`WatchViewer`), and takes the round, its meeting and
    /// my card from the tables; the relay reads my channel, name, local
    /// name and meeting.
    case me(channel: UInt8, name: String, adapter: String, nameTaken: Bool = false, onAir: [UInt8] = [],
            meeting: [UInt8] = [], relayDownSince: Timestamp? = nil, unsavedSince: Timestamp? = nil)
    /// An advertisement heard: its local name exactly as received (it is
    /// untrusted and may not be UTF-8), its signal strength, whether it
    /// came through the relay rather than over the air, and the discoverable
    /// device it came from (an app user's, told apart by it), when it is one.
    case heard(localName: [UInt8], rssi: Int?, relayed: Bool = false, from: Advertiser? = nil)
    /// One channel's table as decided now: sent when a watch attaches and
    /// after every change of the table.
    case table(WatchTable)
    /// A reception: its person's signal, and how they are heard.
    case seen(WatchSighting)
    /// A change decided in the room, as `watch --json` prints it (`json`)
    /// and as `watch` prints it on a pipe (`line`, names sanitised).
    case change(json: JSONValue, line: String)
    /// The radio's state changed, in words.
    case radio(String)
    /// The session is ending; the stream closes after this line.
    case ended(String)

    public var serialized: String {
        let json: JSONValue
        switch self {
        case let .me(channel, name, adapter, nameTaken, onAir, meeting, relayDownSince, unsavedSince):
            json = .object([
                JSONMember("me", .object([
                    JSONMember("channel", .number(String(channel))), JSONMember("name", .string(name)),
                    JSONMember("adapter", .string(adapter)),
                    JSONMember("nameTaken", .bool(nameTaken)),
                    JSONMember("onAir", .string(Hex.text(onAir))),
                    JSONMember("meeting", .string(Hex.text(meeting))),
                    JSONMember("relayDownSince", relayDownSince.map { .string(RFC3339.string($0)) } ?? .null),
                    JSONMember("unsavedSince", unsavedSince.map { .string(RFC3339.string($0)) } ?? .null),
                ])),
            ])
        case let .heard(localName, rssi, relayed, advertiser):
            var members = [
                JSONMember("localName", .string(Hex.text(localName))),
                JSONMember("rssi", rssi.map { .number(String($0)) } ?? .null),
            ]
            if relayed { members.append(JSONMember("relayed", .bool(true))) }
            if let advertiser, advertiser.isDiscoverable { members.append(JSONMember("app", .string(advertiser.address))) }
            json = .object([JSONMember("heard", .object(members))])
        case let .table(table): json = .object([JSONMember("table", table.json)])
        case let .seen(sighting): json = .object([JSONMember("seen", sighting.json)])
        case let .change(change, line): json = .object([JSONMember("change", change), JSONMember("line", .string(line))])
        case let .radio(state): json = .object([JSONMember("radio", .string(state))])
        case let .ended(reason): json = .object([JSONMember("ended", .string(reason))])
        }
        return json.text
    }

    public init(parsing line: some Collection<UInt8>) throws(ControlReplyError) {
        guard let json = try? JSONValue.parse(line), case let .object(members) = json, !members.isEmpty
        else { throw ControlReplyError() }
        if members.count == 2, members[0].key == "change", case .object = members[0].value,
           members[1].key == "line", let text = members[1].value.string {
            self = .change(json: members[0].value, line: text)
            return
        }
        guard members.count == 1 else { throw ControlReplyError() }
        let body = members[0].value
        switch members[0].key {
        case "me":
            guard let channel = body["channel"]?.integer.flatMap(UInt8.init(exactly:)),
                  let name = body["name"]?.string,
                  let adapter = body["adapter"]?.string,
                  case let .bool(nameTaken) = body["nameTaken"]
            else { throw ControlReplyError() }
            self = .me(channel: channel, name: name, adapter: adapter, nameTaken: nameTaken,
                       onAir: body["onAir"]?.string.flatMap(Hex.bytes) ?? [],
                       meeting: body["meeting"]?.string.flatMap(Hex.bytes) ?? [],
                       relayDownSince: body["relayDownSince"]?.string.flatMap(RFC3339.timestamp),
                       unsavedSince: body["unsavedSince"]?.string.flatMap(RFC3339.timestamp))
        case "heard":
            guard let text = body["localName"]?.string, let bytes = Hex.bytes(text), let rssi = body["rssi"]
            else { throw ControlReplyError() }
            let relayed = body["relayed"] == .bool(true)
            let advertiser = body["app"]?.string.map { Advertiser(address: $0, isDiscoverable: true) }
            if rssi == .null {
                self = .heard(localName: bytes, rssi: nil, relayed: relayed, from: advertiser)
            } else {
                guard let value = rssi.integer else { throw ControlReplyError() }
                self = .heard(localName: bytes, rssi: value, relayed: relayed, from: advertiser)
            }
        case "table":
            guard let table = WatchTable(json: body) else { throw ControlReplyError() }
            self = .table(table)
        case "seen":
            guard let sighting = WatchSighting(json: body) else { throw ControlReplyError() }
            self = .seen(sighting)
        case "radio":
            guard let state = body.string else { throw ControlReplyError() }
            self = .radio(state)
        case "ended":
            guard let reason = body.string else { throw ControlReplyError() }
            self = .ended(reason)
        default: throw ControlReplyError()
        }
    }
}

/// One line of the stream a session sends to a `watch` client after
/// accepting its request. The client keeps its own peer table, so a
/// watch attached to a session and one scanning by itself work alike.
public enum ControlWatchLine: Equatable, Sendable {
    /// Who I am now and the round I am in (with its title when I started
    /// it), and whether someone else here has my name; sent first and
    /// after every change.
    case me(channel: UInt8, name: String, card: Card, adapter: String, round: RoundNumber?, title: String?,
            nameTaken: Bool = false)
    /// An advertisement heard: its local name exactly as received (it is
    /// untrusted and may not be UTF-8), and its signal strength.
    case heard(localName: [UInt8], rssi: Int?)
    /// The radio's state changed, in words.
    case radio(String)
    /// The session is ending; the stream closes after this line.
    case ended(String)

    public var serialized: String {
        let json: JSONValue
        switch self {
        case let .me(channel, name, card, adapter, round, title, nameTaken):
            json = .object([
                JSONMember("me", .object([
                    JSONMember("channel", .number(String(channel))), JSONMember("name", .string(name)),
                    JSONMember("cardRaw", .string(card.hex)), JSONMember("adapter", .string(adapter)),
                    JSONMember("round", round.map { .number(String($0.value)) } ?? .null),
                    JSONMember("title", title.map(JSONValue.string) ?? .null),
                    JSONMember("nameTaken", .bool(nameTaken)),
                ])),
            ])
        case let .heard(localName, rssi):
            json = .object([
                JSONMember("heard", .object([
                    JSONMember("localName", .string(Self.hex(localName))),
                    JSONMember("rssi", rssi.map { .number(String($0)) } ?? .null),
                ])),
            ])
        case let .radio(state): json = .object([JSONMember("radio", .string(state))])
        case let .ended(reason): json = .object([JSONMember("ended", .string(reason))])
        }
        return json.text
    }

    public init(parsing line: some Collection<UInt8>) throws(ControlReplyError) {
        guard let json = try? JSONValue.parse(line), case let .object(members) = json, members.count == 1
        else { throw ControlReplyError() }
        let body = members[0].value
        switch members[0].key {
        case "me":
            guard let channel = body["channel"]?.integer.flatMap(UInt8.init(exactly:)),
                  let name = body["name"]?.string,
                  let card = body["cardRaw"]?.string.flatMap(UInt8.init(hex:)),
                  let adapter = body["adapter"]?.string,
                  let round = body["round"], round == .null || round.integer.map({ (0...15).contains($0) }) == true,
                  let title = body["title"], title == .null || title.string != nil,
                  case let .bool(nameTaken) = body["nameTaken"]
            else { throw ControlReplyError() }
            self = .me(channel: channel, name: name, card: Card(rawValue: card), adapter: adapter,
                       round: round.integer.map(RoundNumber.init(wrapping:)), title: title.string, nameTaken: nameTaken)
        case "heard":
            guard let text = body["localName"]?.string, let bytes = Self.bytes(hex: text), let rssi = body["rssi"]
            else { throw ControlReplyError() }
            if rssi == .null {
                self = .heard(localName: bytes, rssi: nil)
            } else {
                guard let value = rssi.integer else { throw ControlReplyError() }
                self = .heard(localName: bytes, rssi: value)
            }
        case "radio":
            guard let state = body.string else { throw ControlReplyError() }
            self = .radio(state)
        case "ended":
            guard let reason = body.string else { throw ControlReplyError() }
            self = .ended(reason)
        default: throw ControlReplyError()
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        var out = ""
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0xF)]) }
        return out
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let utf8 = Array(hex.utf8)
        guard utf8.count.isMultiple(of: 2) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let byte = UInt8(hex: String(decoding: utf8[i..<i + 2], as: UTF8.self)) else { return nil }
            out.append(byte)
            i += 2
        }
        return out
    }
}

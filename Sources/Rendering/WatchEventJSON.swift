import EstimatorKit

/// The `watch --json` line for a peer event: one object with exactly the
/// keys `event, channel, name, card, cardRaw, rssi, time`, in that order.
///
/// `card` is named as in `packet decode --json` (`"8"`, `"0.5"`, `"?"`,
/// `"coffee"`, `"none"`, or `null` for an unknown byte), `cardRaw` is its
/// two hex digits, `rssi` is dBm or `null`, `time` is RFC 3339 in UTC. The
/// name is the decoded name, JSON-escaped (controls as `\uXXXX`), not
/// sanitised: scripts get what was sent, and the escaping keeps the line
/// one valid JSON object a terminal cannot act on.
public enum WatchEventJSON {
    /// The JSON object for `event`, on one line.
    public static func line(_ event: PeerEvent) -> String {
        let object: JSONValue = [
            "event": .string(event.kind.rawValue),
            "channel": .int(Int(event.channel.rawValue)),
            "name": .string(event.name),
            "card": .string(event.card.name),
            "cardRaw": .string(event.card.hex),
            "rssi": event.rssi.map(JSONValue.int) ?? .null,
            "time": .string(RFC3339.string(event.time)),
        ]
        return object.text
    }
}

// libFuzzer target `relay` (mk/fuzz.mk): the relay's bridge (Sources/RelayBridging/
// RelayBridge.swift) over messages from the broker, whose topics and payloads
// anyone on the broker writes (a payload may carry a meeting after its
// packet, docs/PROTOCOL.md, Meeting). The input is a run of messages, each
//   flags, topic length, payload length, topic, payload (lengths mod 64);
// flags bit 0 puts the room's prefix `estimator/1/r/` before the topic, bit
// 1 advances the clock a second and ticks the bridge, bits 2-3 give the
// message's expiry: none, 18 s (a live bridge's), 31 s (too long) or 0.

import EstimatorKit
import Relay
import RelayBridging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var rest = fuzzInput(data, count)[...]
    var bridge = RelayBridge(room: "r", id: "ME", channel: Channel(rawValue: 3), staleAfter: .seconds(6))
    var now = ContinuousClock.Instant.now
    let prefix = Array("estimator/1/r/".utf8)

    /// What the session is handed must be a packet as the air carries it,
    /// and what may follow it (a meeting, docs/PROTOCOL.md, Meeting).
    func checkRelayed(_ actions: [RelayBridge.Action], _ what: String) {
        for case let .relay(bytes) in actions {
            check(bytes.count <= RelayBridge.maximumPayload, "\(what): a relayed packet of \(bytes.count) bytes")
            guard let packet = try? Packet(decoding: RelayPayload(splitting: bytes).localName)
            else { return check(false, "\(what): relays no packet: \(bytes)") }
            check(!actsOnTerminal(TerminalText.sanitize(packet.name)), "\(what): a sanitised name keeps a control")
        }
    }

    while rest.count >= 3 {
        let flags = rest.removeFirst()
        let topicLength = Int(rest.removeFirst() % 64), payloadLength = Int(rest.removeFirst() % 64)
        let topic = (flags & 1 == 1 ? prefix : []) + Array(rest.prefix(topicLength))
        rest = rest.dropFirst(topicLength)
        let payload = Array(rest.prefix(payloadLength))
        rest = rest.dropFirst(payloadLength)

        let expiry: Duration? = switch (flags >> 2) & 3 {
        case 0: nil
        case 1: .seconds(18)
        case 2: .seconds(31)
        default: .zero
        }
        let actions = bridge.received(BrokerMessage(topic: topic, payload: payload, retained: true, expiry: expiry), now: now)
        let what = "topic \(topic) payload \(payload) expiry \(String(describing: expiry))"
        let relayed = actions.compactMap { if case let .relay(bytes) = $0 { try? Packet(decoding: RelayPayload(splitting: bytes).localName) } else { nil } }
        check(actions.count <= 2 && relayed.count == actions.count,
              "\(what): a message from the broker does more than relay a packet, and a leave before it: \(actions)")
        check(relayed.count < 2 || relayed[0].card == .none, "\(what): two packets relayed, the first no leave: \(actions)")
        if expiry != .seconds(18) {
            check(relayed.allSatisfy { $0.card == .none }, "\(what): a presence without a live expiry was taken: \(actions)")
        }
        checkRelayed(actions, what)
        if let levels = Topic.levels(topic), levels.count > 4, levels[4] == "ME" {
            check(actions.isEmpty, "\(what): my own topic came back to me")
        }
        if let packet = actions.first.flatMap({ if case let .relay(bytes) = $0 { try? Packet(decoding: bytes) } else { nil } }),
           !payload.isEmpty, let levels = Topic.levels(topic) {
            check(levels.count > 3 && levels[3] == Substring(String(packet.channel.rawValue)),
                  "\(what): a packet relayed from another channel's topic")
        }
        if flags & 2 == 2 {
            now += .seconds(1)
            checkRelayed(bridge.tick(now: now), "tick after \(what)")
        }
    }
    return 0
}

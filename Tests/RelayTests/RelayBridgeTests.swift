import EstimatorKit
import Relay
import RelayBridging
import Testing

/// The poker mapping of the relay, without a broker: what goes to which
/// topic, what comes back to the session, and what is dropped.
@Suite struct RelayBridgeTests {
    let start = ContinuousClock.now
    var bridge = RelayBridge(room: "r", id: "ME", channel: Channel(rawValue: 3), staleAfter: .seconds(6))

    func message(_ topic: String, _ payload: String) -> BrokerMessage {
        BrokerMessage(topic: Array(topic.utf8), payload: Array(payload.utf8), retained: true)
    }

    @Test mutating func myPacketGoesToMyTopicAndMovesWithMyChannel() {
        #expect(bridge.me(channel: Channel(rawValue: 3), name: "Ann", payload: Array("0103FCAnn".utf8))
            == [.publish(topic: "estimator/1/r/3/ME", payload: Array("0103FCAnn".utf8))])
        #expect(bridge.me(channel: Channel(rawValue: 3), name: "Ann", payload: Array("0103FCAnn".utf8)) == [], "unchanged: nothing")
        #expect(bridge.me(channel: Channel(rawValue: 4), name: "Ann", payload: Array("0104FCAnn".utf8)) == [
            .publish(topic: "estimator/1/r/3/ME", payload: []), .will(topic: "estimator/1/r/4/ME"), .reconnect,
            .publish(topic: "estimator/1/r/4/ME", payload: Array("0104FCAnn".utf8)),
        ])
        #expect(bridge.leave() == [.publish(topic: "estimator/1/r/4/ME", payload: [])])
    }

    @Test mutating func airPeersAreForwardedOnceAndClearedWhenStaleOrLeaving() throws {
        _ = bridge.me(channel: Channel(rawValue: 3), name: "Ann", payload: Array("0103FCAnn".utf8))
        let phone = Array("010305Phone".utf8)
        let actions = bridge.heard(phone, relayed: false, now: start)
        guard case let .publish(topic, payload, expiry) = try #require(actions.first) else { Issue.record("no publish"); return }
        #expect(topic.hasPrefix("estimator/1/r/3/ME/fwd/") && payload == phone)
        #expect(expiry == .seconds(18), "the broker drops it by itself if this relay is killed")
        #expect(bridge.heard(phone, relayed: false, now: start + .seconds(1)) == [], "heard again, unchanged")
        #expect(bridge.heard(Array("0103FCAnn".utf8), relayed: false, now: start) == [], "my own echo")
        #expect(bridge.heard(Array("010305Bob".utf8), relayed: true, now: start) == [], "from the broker: never sent back")
        #expect(bridge.tick(now: start + .seconds(5)) == [], "not stale yet")
        _ = bridge.heard(phone, relayed: false, now: start + .seconds(5))
        #expect(bridge.tick(now: start + .seconds(6)) == [.publish(topic: topic, payload: phone, expiry: .seconds(18))],
                "still heard: published again before it expires")
        #expect(bridge.tick(now: start + .seconds(7)) == [])
        #expect(bridge.tick(now: start + .seconds(12)) == [.publish(topic: topic, payload: [])])
        _ = bridge.heard(phone, relayed: false, now: start + .seconds(13))
        #expect(bridge.heard(Array("0103FFPhone".utf8), relayed: false, now: start + .seconds(13)) == [.publish(topic: topic, payload: [])])
    }

    @Test mutating func brokerPacketsReachTheSessionAndClearingOneIsALeave() {
        #expect(bridge.received(message("estimator/1/r/3/BOB", "210305Bob")) == [.relay(Array("210305Bob".utf8))])
        #expect(bridge.tick(now: start) == [.relay(Array("210305Bob".utf8))], "handed again, so it does not go stale")
        #expect(bridge.received(message("estimator/1/r/3/BOB", "")) == [.relay(Array("2103FFBob".utf8))])
        #expect(bridge.received(message("estimator/1/r/3/ME", "0103FCAnn")) == [], "my own topic")
        _ = bridge.received(message("estimator/1/r/3/CAROL", "0103FCCarol"))
        bridge.disconnected()
        #expect(bridge.tick(now: start + .seconds(3)) == [], "without the broker nothing is refreshed: its peers turn stale")
    }

    @Test mutating func forwardedPacketsCountOnlyWhileTheirForwarderIsThere() {
        #expect(bridge.received(message("estimator/1/r/3/CAROL/fwd/ab", "010305Phone")) == [])
        #expect(bridge.received(message("estimator/1/r/3/CAROL", "0103FCCarol")) == [.relay(Array("0103FCCarol".utf8))])
        #expect(Set(bridge.tick(now: start)) == [.relay(Array("0103FCCarol".utf8)), .relay(Array("010305Phone".utf8))])
        // Someone already brings Phone to the broker: not forwarded again.
        #expect(bridge.heard(Array("010305Phone".utf8), relayed: false, now: start) == [])
    }

    @Test(arguments: [
        ("estimator/1/r/3/X", "hello"),                 // not a packet
        ("estimator/1/r/4/X", "010305Wrong"),           // channel disagrees
        ("estimator/1/r/03/X", "010305Zero"),           // not the decimal form
        ("estimator/1/other/3/X", "010305Room"),        // another room
        ("estimator/2/r/3/X", "010305Version"),         // another version
        ("estimator/1/r/3/X/y", "010305Odd"),           // wrong shape
        ("estimator/1/r/3/X/fwd/a/b", "010305Deep"),
        ("estimator/1/r/3/X+", "010305Wild"),
    ])
    mutating func malformedMessagesAreDropped(topic: String, payload: String) {
        #expect(bridge.received(message(topic, payload)) == [])
        #expect(bridge.tick(now: start) == [])
    }

    @Test mutating func oversizedAndInvalidPayloadsAreDropped() {
        let big = BrokerMessage(topic: Array("estimator/1/r/3/X".utf8),
                                payload: Array("010305".utf8) + Array(repeating: 0x41, count: 100), retained: true)
        #expect(bridge.received(big) == [], "a local name longer than any on the air")
        let meeting = Array("010305Ann".utf8) + [0] + Array(repeating: 0x41, count: 1014)
        #expect(bridge.received(BrokerMessage(topic: Array("estimator/1/r/3/X".utf8), payload: meeting, retained: true))
            == [.relay(meeting)], "a meeting beside it is passed on unread, up to 1024 bytes in all")
        let huge = BrokerMessage(topic: Array("estimator/1/r/3/Y".utf8), payload: meeting + [0x41], retained: true)
        #expect(bridge.received(huge) == [])
        let badTopic = BrokerMessage(topic: [0xFF] + Array("/1/r/3/X".utf8), payload: Array("010305A".utf8), retained: true)
        #expect(bridge.received(badTopic) == [])
        // A packet whose name is invalid UTF-8 is passed on: the session's
        // decoder replaces the bytes and its sanitiser guards the terminal.
        let odd = BrokerMessage(topic: Array("estimator/1/r/3/X".utf8), payload: Array("010305".utf8) + [0xFF], retained: true)
        #expect(bridge.received(odd) == [.relay(Array("010305".utf8) + [0xFF])])
    }

    @Test func remoteTopicsAreCapped() {
        var bridge = bridge
        for index in 0..<(RelayBridge.maximumRemoteTopics + 10) {
            _ = bridge.received(message("estimator/1/r/3/P\(index)", "010305P\(index)"))
        }
        #expect(bridge.tick(now: start).count == RelayBridge.maximumRemoteTopics)
    }
}

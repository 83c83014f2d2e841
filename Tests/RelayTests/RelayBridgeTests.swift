import EstimatorKit
import Relay
import RelayBridging
import Testing

/// The poker mapping of the relay, without a broker: what goes to which
/// topic, what comes back to the session, and what is dropped.
@Suite struct RelayBridgeTests {
    let start = ContinuousClock.now
    var bridge = RelayBridge(room: "r", id: "ME", channel: Channel(rawValue: 3), staleAfter: .seconds(6))

    /// A message as a live bridge publishes it: with an expiry.
    func message(_ topic: String, _ payload: String, expiry: Duration? = .seconds(18)) -> BrokerMessage {
        BrokerMessage(topic: Array(topic.utf8), payload: Array(payload.utf8), retained: true, expiry: expiry)
    }

    /// `message` received by the bridge `at` after the start.
    mutating func receive(_ message: BrokerMessage, at offset: Duration = .zero) -> [RelayBridge.Action] {
        bridge.received(message, now: start + offset)
    }

    @Test mutating func myPacketGoesToMyTopicAndMovesWithMyChannel() {
        #expect(bridge.me(channel: Channel(rawValue: 3), name: "Ann", payload: Array("0103FCAnn".utf8), now: start)
            == [.publish(topic: "estimator/1/r/3/ME", payload: Array("0103FCAnn".utf8), expiry: .seconds(18))])
        #expect(bridge.me(channel: Channel(rawValue: 3), name: "Ann", payload: Array("0103FCAnn".utf8), now: start) == [], "unchanged: nothing")
        #expect(bridge.me(channel: Channel(rawValue: 4), name: "Ann", payload: Array("0104FCAnn".utf8), now: start) == [
            .publish(topic: "estimator/1/r/3/ME", payload: []), .will(topic: "estimator/1/r/4/ME"), .reconnect,
            .publish(topic: "estimator/1/r/4/ME", payload: Array("0104FCAnn".utf8), expiry: .seconds(18)),
        ])
        #expect(bridge.leave() == [.publish(topic: "estimator/1/r/4/ME", payload: [])])
    }

    @Test mutating func airPeersAreForwardedOnceAndClearedWhenStaleOrLeaving() throws {
        _ = bridge.me(channel: Channel(rawValue: 3), name: "Ann", payload: Array("0103FCAnn".utf8), now: start)
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
        let mine = RelayBridge.Action.publish(topic: "estimator/1/r/3/ME", payload: Array("0103FCAnn".utf8), expiry: .seconds(18))
        #expect(bridge.tick(now: start + .seconds(6)) == [mine, .publish(topic: topic, payload: phone, expiry: .seconds(18))],
                "still heard: published again before it expires, as mine is")
        #expect(bridge.tick(now: start + .seconds(7)) == [])
        #expect(bridge.tick(now: start + .seconds(12)) == [mine, .publish(topic: topic, payload: [])])
        _ = bridge.heard(phone, relayed: false, now: start + .seconds(13))
        #expect(bridge.heard(Array("0103FFPhone".utf8), relayed: false, now: start + .seconds(13)) == [.publish(topic: topic, payload: [])])
    }

    @Test mutating func brokerPacketsReachTheSessionAndClearingOneIsALeave() {
        #expect(receive(message("estimator/1/r/3/BOB", "210305Bob")) == [.relay(Array("210305Bob".utf8))])
        #expect(bridge.tick(now: start) == [.relay(Array("210305Bob".utf8))], "handed again, so it does not go stale")
        #expect(receive(message("estimator/1/r/3/BOB", "")) == [.relay(Array("2103FFBob".utf8))])
        #expect(receive(message("estimator/1/r/3/ME", "0103FCAnn")) == [], "my own topic")
        _ = receive(message("estimator/1/r/3/CAROL", "0103FCCarol"))
        bridge.disconnected()
        #expect(bridge.tick(now: start + .seconds(3)) == [], "without the broker nothing is refreshed: its peers turn stale")
    }

    @Test mutating func forwardedPacketsCountOnlyWhileTheirForwarderIsThere() {
        #expect(receive(message("estimator/1/r/3/CAROL/fwd/ab", "010305Phone")) == [])
        #expect(receive(message("estimator/1/r/3/CAROL", "0103FCCarol")) == [.relay(Array("0103FCCarol".utf8))])
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
        #expect(receive(message(topic, payload)) == [])
        #expect(bridge.tick(now: start) == [])
    }

    @Test mutating func oversizedAndInvalidPayloadsAreDropped() {
        let big = BrokerMessage(topic: Array("estimator/1/r/3/X".utf8),
                                payload: Array("010305".utf8) + Array(repeating: 0x41, count: 100), retained: true, expiry: .seconds(18))
        #expect(receive(big) == [], "a local name longer than any on the air")
        let meeting = Array("010305Ann".utf8) + [0] + Array(repeating: 0x41, count: 1014)
        #expect(receive(BrokerMessage(topic: Array("estimator/1/r/3/X".utf8), payload: meeting, retained: true, expiry: .seconds(18)))
            == [.relay(meeting)], "a meeting beside it is passed on unread, up to 1024 bytes in all")
        let huge = BrokerMessage(topic: Array("estimator/1/r/3/Y".utf8), payload: meeting + [0x41], retained: true, expiry: .seconds(18))
        #expect(receive(huge) == [])
        let badTopic = BrokerMessage(topic: [0xFF] + Array("/1/r/3/X".utf8), payload: Array("010305A".utf8), retained: true, expiry: .seconds(18))
        #expect(receive(badTopic) == [])
        // A packet whose name is invalid UTF-8 is passed on: the session's
        // decoder replaces the bytes and its sanitiser guards the terminal.
        let odd = BrokerMessage(topic: Array("estimator/1/r/3/Z".utf8), payload: Array("010305".utf8) + [0xFF], retained: true, expiry: .seconds(18))
        #expect(receive(odd) == [.relay(Array("010305".utf8) + [0xFF])])
    }

    @Test func remoteTopicsAreCapped() {
        var bridge = bridge
        for index in 0..<(RelayBridge.maximumRemoteTopics + 10) {
            _ = bridge.received(message("estimator/1/r/3/P\(index)", "010305P\(index)"), now: start)
        }
        #expect(bridge.tick(now: start).count == RelayBridge.maximumRemoteTopics)
    }

    // MARK: Presence expires

    @Test mutating func myPresenceGoesAgainBeforeItExpires() {
        let mine = Array("0103FCAnn".utf8)
        _ = bridge.me(channel: Channel(rawValue: 3), name: "Ann", payload: mine, now: start)
        #expect(bridge.tick(now: start + .seconds(5)) == [])
        #expect(bridge.tick(now: start + .seconds(6)) == [.publish(topic: "estimator/1/r/3/ME", payload: mine, expiry: .seconds(18))],
                "a refresh each stale time, three within the expiry")
        #expect(bridge.tick(now: start + .seconds(7)) == [])
        #expect(bridge.republish() == [.publish(topic: "estimator/1/r/3/ME", payload: mine, expiry: .seconds(18))],
                "on a new connection too")
        let slow = RelayBridge(room: "r", id: "ME", channel: Channel(rawValue: 3), staleAfter: .seconds(600))
        var patient = slow
        _ = patient.me(channel: Channel(rawValue: 3), name: "Ann", payload: mine, now: start)
        #expect(patient.tick(now: start + .seconds(10)) == [.publish(topic: "estimator/1/r/3/ME", payload: mine, expiry: .seconds(30))],
                "a long stale time still refreshes every 10 s, within what others take")
    }

    /// A retained message kept without an expiry, or with a longer one than
    /// any bridge gives, is nobody here: thousands of them cannot fill the room.
    @Test(arguments: [nil, Duration.seconds(31), Duration.seconds(86400), Duration.zero])
    mutating func aPresenceWithoutAnExpiryOrALongerOneIsNobody(expiry: Duration?) {
        #expect(receive(message("estimator/1/r/3/FAKE", "010305Fake", expiry: expiry)) == [])
        #expect(bridge.tick(now: start) == [])
        #expect(receive(message("estimator/1/r/3/BOB", "010305Bob", expiry: .seconds(30))) == [.relay(Array("010305Bob".utf8))],
                "the longest expiry a bridge gives counts")
        #expect(receive(message("estimator/1/r/3/BOB", "010308Bob", expiry: expiry)) == [.relay(Array("0103FFBob".utf8))],
                "a known topic taken over for good: its person leaves")
    }

    @Test mutating func aPresenceThatRunsOutUnrefreshedIsNoLongerHandedOn() {
        let bob = Array("010305Bob".utf8)
        #expect(receive(message("estimator/1/r/3/BOB", "010305Bob", expiry: .seconds(6))) == [.relay(bob)])
        #expect(bridge.tick(now: start + .seconds(5)) == [.relay(bob)])
        #expect(bridge.tick(now: start + .seconds(8)) == [], "the broker dropped it at 6 s: the session's table lets it go stale")
        #expect(receive(message("estimator/1/r/3/BOB", "010305Bob", expiry: .seconds(6)), at: .seconds(9)) == [.relay(bob)],
                "published again: here again")
    }

    @Test mutating func aNameChangedOnATopicLeavesUnderTheOldOne() {
        _ = receive(message("estimator/1/r/3/MAL", "010305Mal1"))
        #expect(receive(message("estimator/1/r/3/MAL", "010305Mal2")) == [.relay(Array("0103FFMal1".utf8)), .relay(Array("010305Mal2".utf8))],
                "one topic is one person, whatever it calls itself")
        #expect(bridge.tick(now: start) == [.relay(Array("010305Mal2".utf8))])
    }
}

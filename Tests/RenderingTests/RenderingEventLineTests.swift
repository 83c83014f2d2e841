import EstimatorKit
import Foundation
import Rendering
import Testing

@Suite struct RenderingEventLineTests {
    let time = Timestamp(secondsSince1970: 1_795_319_506, nanoseconds: 722_999_999)  // 2026-11-22T03:51:46.722Z

    func event(_ kind: PeerEvent.Kind, _ name: String = "전수열", card: Card = .eight, rssi: Int? = -61)
        -> WatchChange
    {
        let event = PeerEvent(kind, PeerID(channel: Channel(rawValue: 1), name: name), card: card, rssi: rssi, time: time)
        return .peer(event, mark: card == .waiting ? .waiting : .shown(card), round: nil)
    }

    @Test func aJoinedEventIsOneObjectWithExactlyTheDocumentedKeysInOrder() {
        #expect(WatchEventJSON.line(event(.joined)) == """
            {"event":"joined","channel":1,"round":null,"name":"전수열","card":"8","cardRaw":"08","rssi":-61,"heard":"air","time":"2026-11-22T03:51:46.722Z","role":"voter","app":false,"cut":false,"story":null}
            """)
    }

    @Test(arguments: Hearing.allCases) func peerEventsSayHowThePeerIsHeard(_ heard: Hearing) {
        guard case let .peer(event, mark, round, _, _) = event(.card) else { return }
        let line = WatchEventJSON.line(.peer(event, mark: mark, round: round, heard: heard))
        #expect(line.contains(#""rssi":-61,"heard":"\#(heard.rawValue)","time""#))
    }

    @Test(arguments: PeerEvent.Kind.allCases) func everyKindParsesWithTheSameKeys(_ kind: PeerEvent.Kind) throws {
        let line = WatchEventJSON.line(event(kind))
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["event", "channel", "round", "name", "card", "cardRaw", "rssi", "heard", "time", "role", "app", "cut", "story"])
        #expect(object["event"] as? String == kind.rawValue)
    }

    @Test func unknownCardsAreNullWithTheirRawByteAndMissingSignalIsNull() {
        let line = WatchEventJSON.line(event(.card, "Bob", card: Card(rawValue: 0x99), rssi: nil))
        #expect(line.contains(#""card":null,"cardRaw":"99","rssi":null,"#))
    }

    @Test func cardNamesMatchPacketDecode() {
        let cards: [Card] = Deck.app.cards + Card.sizes + [.question, .coffee, .waiting, .none]
        let names = cards.map { WatchEventJSON.line(event(.card, card: $0)) }
        for (card, line) in zip(cards, names) {
            #expect(line.contains(#""card":"\#(card.name!)","cardRaw":"\#(card.hex)""#))
        }
        #expect(WatchEventJSON.line(event(.left, card: .none)).contains(#""card":"none","cardRaw":"FF""#))
        #expect(WatchEventJSON.line(event(.card, card: .half)).contains(#""card":"0.5","cardRaw":"7F""#))
    }

    /// A script that prints a field (`jq -r .name`) must write nothing a
    /// terminal acts on: the name is the table's, not only JSON-escaped.
    @Test func hostileNamesStayOneValidLineWithTheNameTheTableShows() throws {
        let name = "\u{1B}]52;c;AAAA\u{07}\"quoted\"\\\n\u{202E}x\u{1B}[2J\u{9B}1m"
        let line = WatchEventJSON.line(event(.joined, name))
        #expect(!line.unicodeScalars.contains(where: isControl))
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let decoded = try #require(object["name"] as? String)
        #expect(decoded == TerminalText.sanitize(name))
        #expect(decoded == "\"quoted\"\\x", "a C1 CSI takes its sequence with it")
        #expect(!line.contains("\\u001b") && !line.contains("\\u202e") && !line.contains("\\u0007"))
    }

    @Test func aRevealAndARoundCarryTheirNamesAndTitleSanitised() throws {
        let channel = Channel(rawValue: 1)
        let hostile = "Mal\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let eve = Tally.Entry(name: "Eve\u{202E}", card: .waiting, isMe: false, isStale: false)
        let tally = Tally(entries: [Tally.Entry(name: hostile, card: .eight, isMe: false, isStale: false, mark: .shown(.eight)), eve],
                          voters: 2, voted: 1, waitingFor: [eve], isRevealed: true, round: RoundNumber(wrapping: 2),
                          stats: Stats([(hostile, .eight)]))
        let revealed = WatchEventJSON.line(.revealed(channel: channel, tally: tally, story: nil, time: time))
        let round = WatchEventJSON.line(.round(channel: channel, round: RoundNumber(wrapping: 2), title: "T\u{1B}[31m-1", time: time))
        for line in [revealed, round] {
            #expect(!line.contains("\\u001b") && !line.contains("\\u0007") && !line.contains("\\u202e"), "\(line)")
        }
        #expect(revealed.contains(#""cards":[{"name":"Mal","card":"8","cardRaw":"08"}],"without":["Eve"]"#))
        #expect(round.contains(#""title":"T-1""#))
    }

    @Test func changeLinesSayWhatHappenedOnePerEvent() {
        #expect(ChangeLine.line(event(.joined)) == "2026-11-22T03:51:46.722Z channel 1 전수열 joined with 8 (-61 dBm)")
        #expect(ChangeLine.line(event(.card, card: .coffee)) == "2026-11-22T03:51:46.722Z channel 1 전수열 picked ☕ (-61 dBm)")
        #expect(ChangeLine.line(event(.stale)) == "2026-11-22T03:51:46.722Z channel 1 전수열 not heard lately (stale)")
        #expect(ChangeLine.line(event(.back, rssi: nil)) == "2026-11-22T03:51:46.722Z channel 1 전수열 back with 8")
        #expect(ChangeLine.line(event(.left, card: .none)) == "2026-11-22T03:51:46.722Z channel 1 전수열 left")
    }

    @Test func aHiddenVoteIsVotedWithoutItsCard() {
        let event = PeerEvent(.card, PeerID(channel: Channel(rawValue: 1), name: "Alice"), card: .eight,
                              round: RoundNumber(wrapping: 3), rssi: -50, time: time)
        let change = WatchChange.peer(event, mark: .hidden, round: RoundNumber(wrapping: 3), heard: .both)
        #expect(WatchEventJSON.line(change) == """
            {"event":"voted","channel":1,"round":3,"name":"Alice","card":"hidden","cardRaw":null,"rssi":-50,"heard":"both","time":"2026-11-22T03:51:46.722Z","role":"voter","app":false,"cut":false,"story":null}
            """)
        #expect(ChangeLine.line(change) == "2026-11-22T03:51:46.722Z channel 1 Alice voted (-50 dBm + relay)")
        #expect(ChangeLine.line(.peer(event, mark: .hidden, round: nil, heard: .relay)).hasSuffix(" Alice voted (relay)"))
        #expect(ChangeLine.line(.peer(event, mark: .hidden, round: nil)).hasSuffix(" Alice voted (-50 dBm)"))
        let waiting = WatchChange.peer(event, mark: .waiting, round: RoundNumber(wrapping: 4))
        #expect(WatchEventJSON.line(waiting).contains(#""event":"card","channel":1,"round":4,"name":"Alice","card":"waiting","cardRaw":"FC""#))
        #expect(ChangeLine.line(waiting).hasSuffix(" Alice has no card (-50 dBm)"))
    }

    /// An observer (`join --observer`, card `F9`) is a peer whose role says
    /// so, and whose card is no vote to show.
    @Test func anObserverIsObservingWithTheObserversRole() {
        let event = PeerEvent(.card, PeerID(channel: Channel(rawValue: 1), name: "Olga"), card: .observing,
                              round: RoundNumber(wrapping: 3), rssi: -50, time: time)
        #expect(WatchEventJSON.line(.peer(event, mark: .observing, round: RoundNumber(wrapping: 3))) == """
            {"event":"card","channel":1,"round":3,"name":"Olga","card":"observing","cardRaw":null,"rssi":-50,"heard":"air","time":"2026-11-22T03:51:46.722Z","role":"observer","app":false,"cut":false,"story":null}
            """)
    }

    /// A reveal on demand lists the cards there are, and who had not voted.
    @Test func aRevealWithoutSomeoneListsThem() throws {
        let one = Channel(rawValue: 1)
        let (room, later) = try roomRevealedOnDemand(hearing: ["230105Alice", "2301FCBob"], at: time)
        let revealed = WatchChange.revealed(channel: one, tally: room.tally(of: one, now: later), time: time)
        #expect(WatchEventJSON.line(revealed) == """
            {"event":"revealed","channel":1,"round":3,"cards":[{"name":"Alice","card":"5","cardRaw":"05"}],"without":["Bob"],"time":"2026-11-22T03:51:46.722Z","story":null}
            """)
    }

    @Test func theRevealListsEveryCardAndTheRoundItsTitle() {
        let tally = Tally.revealed([(name: "Alice", card: .five), (name: "전수열", card: .eight)],
                                   round: RoundNumber(wrapping: 3))
        let revealed = WatchChange.revealed(channel: Channel(rawValue: 1), tally: tally, time: time)
        #expect(WatchEventJSON.line(revealed) == """
            {"event":"revealed","channel":1,"round":3,"cards":[{"name":"Alice","card":"5","cardRaw":"05"},{"name":"전수열","card":"8","cardRaw":"08"}],"without":[],"time":"2026-11-22T03:51:46.722Z","story":null}
            """)
        #expect(ChangeLine.line(revealed)
                == "2026-11-22T03:51:46.722Z channel 1 round 3 revealed: Alice 5, 전수열 8 · median 6.5 · mean 6.5 ≈ 8 · 8: 전수열 explains · 5: Alice explains")
        let round = WatchChange.round(channel: Channel(rawValue: 1), round: RoundNumber(wrapping: 4), title: "ABC-1", time: time)
        #expect(WatchEventJSON.line(round)
                == #"{"event":"round","channel":1,"round":4,"title":"ABC-1","time":"2026-11-22T03:51:46.722Z"}"#)
        #expect(ChangeLine.line(round) == "2026-11-22T03:51:46.722Z channel 1 round 4 began (ABC-1)")
        let untitled = WatchChange.round(channel: Channel(rawValue: 1), round: RoundNumber(wrapping: 4), title: nil, time: time)
        #expect(WatchEventJSON.line(untitled).contains(#""title":null"#))
    }

    @Test func anAgreedEstimateIsASettledEventWithItsStory() {
        let settled = WatchChange.settled(channel: Channel(rawValue: 1), round: RoundNumber(wrapping: 4),
                                          story: Story(key: "ABC-1", summary: "Login \"now\""), agreed: .half, time: time)
        #expect(WatchEventJSON.line(settled) == #"{"event":"settled","channel":1,"round":4,"story":{"key":"ABC-1","summary":"Login \"now\""},"#
            + #""agreed":"0.5","time":"2026-11-22T03:51:46.722Z"}"#)
        #expect(ChangeLine.line(settled) == "2026-11-22T03:51:46.722Z channel 1 round 4 (ABC-1 Login \"now\") settled at ½")
        let bare = WatchChange.settled(channel: Channel(rawValue: 1), round: nil, story: nil, agreed: Card.sizes[2], time: time)
        #expect(WatchEventJSON.line(bare).contains(#""round":null,"story":null,"agreed":"M","#))
        #expect(ChangeLine.line(bare) == "2026-11-22T03:51:46.722Z channel 1 settled at M")
    }

    @Test func changeLinesSanitiseNames() {
        let line = ChangeLine.line(event(.joined, "\u{1B}[31mEve\u{07}"))
        #expect(line.contains(" Eve joined"))
        #expect(!line.unicodeScalars.contains(where: isControl))
    }
}


import EstimatorKit
import PropertyBased
import Testing

@Suite struct ControlRequestTests {
    func parse(_ text: String) throws(ControlRequestError) -> ControlRequest {
        try ControlRequest(parsing: Array(text.utf8))
    }

    @Test func parsesEveryRequest() throws {
        #expect(try parse(#"{"request":"pick","card":"8"}"#) == .pick(.eight))
        #expect(try parse(#" { "card" : "coffee" , "request" : "pick" } "#) == .pick(.coffee))
        #expect(try parse(#"{"request":"join","channel":255,"name":"전수열"}"#) == .join(channel: 255, name: "전수열"))
        #expect(try parse(#"{"request":"join","name":"Bob"}"#) == .join(channel: nil, name: "Bob"))
        #expect(try parse(#"{"request":"join","channel":0,"name":null}"#) == .join(channel: 0, name: nil))
        #expect(try parse(#"{"request":"join","deck":"fibonacci"}"#) == .join(channel: nil, name: nil, deck: .fibonacci))
        #expect(try parse(#"{"request":"join","range":"hall"}"#) == .join(channel: nil, name: nil, range: .hall))
        #expect(ControlRequest.join(channel: nil, name: nil, range: .near).serialized == #"{"request":"join","range":"near"}"#)
        #expect(try parse(#"{"request":"join","deck":"8,1,2"}"#) == .join(channel: nil, name: nil, deck: try Deck(parsing: "1,2,8")))
        #expect(try parse(#"{"request":"pick","card":"21"}"#) == .pick(Card(integer: 21)!))
        #expect(try parse(#"{"request":"pick","card":"XL"}"#) == .pick(Card.sizes[4]))
        #expect(try parse(#"{"request":"leave"}"#) == .leave)
        #expect(try parse(#"{"request":"status"}"#) == .status)
        #expect(try parse(#"{"request":"watch"}"#) == .watch)
        #expect(try parse(#"{"request":"watch","cards":"open"}"#) == .watchOpen)
        #expect(ControlRequest.watchOpen.serialized == #"{"request":"watch","cards":"open"}"#)
        #expect(throws: ControlRequestError.wrongType(field: "cards", expected: #""open""#)) {
            try parse(#"{"request":"watch","cards":"shut"}"#)
        }
        #expect(throws: ControlRequestError.wrongType(field: "heard", expected: #""air""#)) {
            try parse(#"{"request":"watch","heard":"air","cards":"open"}"#)
        }
    }

    @Test(arguments: [
        (#"{"request":"join","channel":256}"#, ControlRequestError.wrongType(field: "channel", expected: "an integer from 0 to 255")),
        (#"{"request":"join","channel":-1}"#, .wrongType(field: "channel", expected: "an integer from 0 to 255")),
        (#"{"request":"join","channel":1.0}"#, .wrongType(field: "channel", expected: "an integer from 0 to 255")),
        (#"{"request":"join","channel":"1"}"#, .wrongType(field: "channel", expected: "an integer from 0 to 255")),
        (#"{"request":"join","name":7}"#, .wrongType(field: "name", expected: "a string")),
        (#"{"request":"join","deck":1}"#, .wrongType(field: "deck", expected: "a string")),
        (#"{"request":"join","range":"far"}"#, .wrongType(field: "range", expected: #""near", "room" or "hall""#)),
        (#"{"request":"join","deck":"1,x"}"#, .invalidDeck(DeckParseError(input: "1,x", reason: "'x' is not an integer from 0 to 126"))),
        (#"{"request":"pick"}"#, .missingField("card")),
        (#"{"request":"pick","card":8}"#, .wrongType(field: "card", expected: "a string")),
        (#"{"card":"8"}"#, .missingField("request")),
        (#"{"request":"dance"}"#, .unknownRequest("dance")),
        (#"{"request":"leave","now":true}"#, .unknownField("now")),
        (#"[1,2]"#, .notAnObject),
        (#""pick""#, .notAnObject),
    ])
    func rejectsWithTypedError(line: String, expected: ControlRequestError) {
        #expect(throws: expected) { try parse(line) }
    }

    @Test func rejectsUnknownCardNamingTheDeck() {
        #expect(throws: ControlRequestError.self) { try parse(#"{"request":"pick","card":"127"}"#) }
        let error: ControlRequestError
        do { _ = try parse(#"{"request":"pick","card":"\u001b[2J"}"#); return } catch let e { error = e }
        guard case .invalidCard = error else { Issue.record("\(error)"); return }
        #expect(!error.description.unicodeScalars.contains("\u{1B}"), "echoed input is escaped")
        #expect(error.description.contains("coffee"))
    }

    @Test(arguments: [
        "", "{", "}", #"{"request":"pick""#, #"{"request":"pick",}"#, #"{"request" "pick"}"#,
        #"{"request":"pick"} x"#, #"{"request":'pick'}"#, #"{"request":"pi\qck"}"#, #"{"a":01}"#,
        #"{"a":-}"#, #"{"a":1.}"#, #"{"a":1e}"#, #"{"a":tru}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00x"}"#,
        #"{"a":"\u12G4"}"#, "{\"a\":\"\n\"}", #"{"request":"leave","request":"status"}"#,
    ])
    func malformedJSONIsTyped(line: String) {
        #expect {
            try parse(line)
        } throws: { error in
            guard case .malformed = error as? ControlRequestError else { return false }
            return true
        }
    }

    @Test func invalidUTF8IsMalformed() {
        let bytes = Array(#"{"request":"join","name":""#.utf8) + [0xFF, 0xC3] + Array(#""}"#.utf8)
        #expect {
            try ControlRequest(parsing: bytes)
        } throws: { error in
            guard case let .malformed(json) = error as? ControlRequestError else { return false }
            return json.offset == 26 && json.reason == "invalid UTF-8"
        }
    }

    @Test func depthIsBounded() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: ControlRequestError.self) { try parse(#"{"request":"status","x":\#(deep)}"#) }
        let shallow = String(repeating: "[", count: 7) + String(repeating: "]", count: 7)
        #expect(throws: ControlRequestError.unknownField("x")) { try parse(#"{"request":"status","x":\#(shallow)}"#) }
    }

    @Test func lengthLimitIsFourKiB() throws {
        let pad = { (n: Int) in #"{"request":"join","name":""# + String(repeating: "a", count: n) + #""}"# }
        let overhead = pad(0).utf8.count
        #expect(try parse(pad(ControlRequest.maximumLength - overhead)) == .join(channel: nil, name: String(repeating: "a", count: 4096 - overhead)))
        #expect(throws: ControlRequestError.tooLong(4097)) { try parse(pad(ControlRequest.maximumLength - overhead + 1)) }
    }

    @Test func escapesDecode() throws {
        #expect(try parse(#"{"request":"join","name":"a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}"#)
            == .join(channel: nil, name: "a\"\\/\u{8}\u{C}\n\r\té😀"))
    }

    @Test func arbitraryBytesNeverTrap() async {
        await propertyCheck(count: 2000, input: Gen.uint8().array(of: 0...64)) { bytes in
            _ = try? ControlRequest(parsing: bytes)
            _ = try? ControlReply(parsing: bytes)
            _ = try? ControlWatchLine(parsing: bytes)
        }
    }

    @Test func mutatedValidRequestsNeverTrap() async {
        let valid = Array(#"{"request":"join","channel":12,"name":"\u00e9 x","z":[1,{"a":null}]}"#.utf8)
        await propertyCheck(count: 2000, input: Gen.int(in: 0..<valid.count), Gen.uint8()) { position, byte in
            var bytes = valid
            bytes[position] = byte
            _ = try? ControlRequest(parsing: bytes)
            _ = try? ControlRequest(parsing: bytes[..<position])
        }
    }

    @Test func joinRoundTrips() async {
        // Any scalar at all (surrogate code points are not scalars: map them away).
        let names = Gen.uint32(in: 0...0x10FFFF).map { Unicode.Scalar($0) ?? "\u{FFFD}" }.array(of: 0...30)
        await propertyCheck(count: 500, input: Gen.uint8(), names) { channel, scalars in
            let name = String(String.UnicodeScalarView(scalars))
            let request = ControlRequest.join(channel: channel, name: name)
            let line = request.serialized
            #expect(!line.utf8.contains(0x0A), "one line")
            #expect((try? ControlRequest(parsing: Array(line.utf8))) == request)
        }
    }

    @Test func joinRoundTripsADeck() throws {
        for deck in Deck.named + [try Deck(parsing: "1,2,4,8")] {
            let request = ControlRequest.join(channel: nil, name: nil, deck: deck)
            #expect(request.serialized.contains(#""deck":"\#(deck)""#))
            #expect(try parse(request.serialized) == request)
        }
    }

    @Test func pickRoundTripsEveryCard() throws {
        for card in Deck.app.cards + Deck.tshirt.cards + [Card(integer: 126)!, .question, .coffee, .waiting] {
            #expect(try ControlRequest(parsing: Array(ControlRequest.pick(card).serialized.utf8)) == .pick(card))
        }
    }

    @Test func roundRoundTripsWithAndWithoutATitle() throws {
        for request in [ControlRequest.round(title: nil), .round(title: "ABC-1 \"Login\"")] {
            #expect(try ControlRequest(parsing: Array(request.serialized.utf8)) == request)
        }
        #expect(ControlRequest.round(title: "ABC-1").serialized == #"{"request":"round","title":"ABC-1"}"#)
        #expect(throws: ControlRequestError.wrongType(field: "title", expected: "a string")) {
            try ControlRequest(parsing: Array(#"{"request":"round","title":3}"#.utf8))
        }
    }

    @Test func settleRoundTripsWithAndWithoutACard() throws {
        for request in [ControlRequest.settle(nil), .settle(.five), .settle(.half), .settle(Card.sizes[2]), .settle(Card(integer: 89)!)] {
            #expect(try ControlRequest(parsing: Array(request.serialized.utf8)) == request)
        }
        #expect(ControlRequest.settle(.half).serialized == #"{"request":"settle","card":"0.5"}"#)
        #expect(ControlRequest.settle(nil).serialized == #"{"request":"settle"}"#)
        #expect(try ControlRequest(parsing: Array(#"{"request":"settle","card":null}"#.utf8)) == .settle(nil))
        #expect(throws: ControlRequestError.self) { try ControlRequest(parsing: Array(#"{"request":"settle","card":"7½"}"#.utf8)) }
        #expect(throws: ControlRequestError.unknownField("title")) {
            try ControlRequest(parsing: Array(#"{"request":"settle","title":"x"}"#.utf8))
        }
    }

    @Test func aRoundAndARevealCarryATimerInSeconds() throws {
        let twoMinutes = Countdown(seconds: 120)!
        for request in [ControlRequest.round(title: "ABC-1", timer: twoMinutes), .round(title: nil, timer: twoMinutes),
                        .reveal(), .reveal(after: twoMinutes)] {
            #expect(try ControlRequest(parsing: Array(request.serialized.utf8)) == request)
        }
        #expect(ControlRequest.round(title: "ABC-1", timer: twoMinutes).serialized == #"{"request":"round","title":"ABC-1","timer":120}"#)
        #expect(ControlRequest.reveal(after: twoMinutes).serialized == #"{"request":"reveal","in":120}"#)
        #expect(ControlRequest.reveal().serialized == #"{"request":"reveal"}"#)
        for bad in [#"{"request":"reveal","in":0}"#, #"{"request":"reveal","in":3601}"#, #"{"request":"reveal","in":"2m"}"#,
                    #"{"request":"reveal","in":1.5}"#] {
            #expect(throws: ControlRequestError.wrongType(field: "in", expected: "whole seconds from 1 to 3600")) {
                try ControlRequest(parsing: Array(bad.utf8))
            }
        }
        #expect(throws: ControlRequestError.wrongType(field: "timer", expected: "whole seconds from 1 to 3600")) {
            try ControlRequest(parsing: Array(#"{"request":"round","timer":-5}"#.utf8))
        }
        #expect(throws: ControlRequestError.unknownField("timer")) {
            try ControlRequest(parsing: Array(#"{"request":"reveal","timer":60}"#.utf8))
        }
    }
}

@Suite struct ControlReplyTests {
    @Test func replyRoundTrips() throws {
        let status = ControlStatus(pid: 42, adapter: "hci0", channel: 1, name: "전수열", card: .half, peers: 3,
                                   radio: "advertising and scanning")
        for reply in [ControlReply(exitCode: 0, message: "picked 8"),
                      ControlReply(exitCode: 65, message: "bad \"x\"\n"),
                      ControlReply(exitCode: 0, message: "ok", status: status),
                      ControlReply(exitCode: 0, message: "ok", status: ControlStatus(
                          pid: 42, adapter: "hci0", channel: 1, name: "Ann", card: Card(integer: 34)!, peers: 0, radio: "",
                          deck: .fibonacci))] {
            #expect(try ControlReply(parsing: Array(reply.serialized.utf8)) == reply)
        }
    }

    @Test func watchLinesRoundTrip() async throws {
        await propertyCheck(count: 300, input: Gen.uint8().array(of: 0...40), Gen.int(in: -127...20)) { bytes, rssi in
            for line in [ControlWatchLine.heard(localName: bytes, rssi: rssi), .heard(localName: bytes, rssi: nil)] {
                #expect((try? ControlWatchLine(parsing: Array(line.serialized.utf8))) == line)
            }
        }
        for line in [ControlWatchLine.me(channel: 3, name: "Bob", adapter: "hci1"),
                     .me(channel: 3, name: "Bob \"B\"", adapter: "hci1", nameTaken: true, onAir: Array("2203FCBob".utf8)),
                     .me(channel: 3, name: "Bob", adapter: "hci1", onAir: Array("220308Bob".utf8), meeting: [0x02, 0x00, 0x1A, 0xFF]),
                     .me(channel: 3, name: "Bob", adapter: "hci1",
                         relayDownSince: Timestamp(secondsSince1970: 1_700_000_120, nanoseconds: 250_000_000)),
                     .radio("bluetoothd is not running"), .ended("left")] {
            #expect(try ControlWatchLine(parsing: Array(line.serialized.utf8)) == line)
        }
        let older = #"{"me":{"channel":3,"name":"Bob","cardRaw":"08","adapter":"hci1","round":2,"title":null,"nameTaken":false,"#
            + #""revealed":false,"role":"voter","onAir":"323230333038426F62","meeting":"","relayDownSince":null,"deck":"app","#
            + #""revealsAt":null,"story":null,"agreed":null}}"#
        #expect(try ControlWatchLine(parsing: Array(older.utf8))
            == .me(channel: 3, name: "Bob", adapter: "hci1", onAir: Array("220308Bob".utf8)),
                "keys it does not know are left: what a watch and the relay read")
    }

    @Test func theMeLineCarriesWhatTheWatchAndTheRelayRead() {
        let line = ControlWatchLine.me(channel: 3, name: "Bob", adapter: "hci1", onAir: Array("220308Bob".utf8),
                                       meeting: [0x02, 0x00])
        #expect(line.serialized == #"{"me":{"channel":3,"name":"Bob","adapter":"hci1","nameTaken":false,"#
            + #""onAir":"323230333038426F62","meeting":"0200","relayDownSince":null,"unsavedSince":null}}"#)
    }

    @Test func rejectsForeignLines() {
        for text in [#"{"exit":"0","message":"x"}"#, #"{"message":"x"}"#, #"{"heard":{"localName":"0G","rssi":null}}"#,
                     #"{"heard":{"localName":"+1","rssi":null}}"#, #"{"me":{}}"#, #"{}"#] {
            #expect(throws: ControlReplyError.self) { _ = try ControlReply(parsing: Array(text.utf8)) }
            #expect(throws: ControlReplyError.self) { _ = try ControlWatchLine(parsing: Array(text.utf8)) }
        }
    }
}

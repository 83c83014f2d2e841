import EstimatorKit
import Radio
import SessionDaemon
import Testing

/// Packets from the relay in the session core: the same table as the air,
/// marked as relayed, and the relay's state in `status`.
@Suite(.timeLimit(.minutes(2))) struct SessionRelayTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()

    @Test func relayedPacketsJoinTheTableAndAreMarkedUntilHeardOverTheAir() async throws {
        let session = try makeSession(name: "Ann")
        try await session.start()
        #expect(ControlRequest.relayed(payload: []).isAnswered == false)
        _ = await session.handle(.relayed(payload: Array("010105Remy".utf8)))
        _ = await session.handle(.relayed(payload: Array("010108Both".utf8)))
        _ = await session.handle(.relayed(payload: Array("not a packet".utf8)))
        #expect(await session.table.peers(in: Channel(rawValue: 1)).map(\.name) == ["Both", "Remy"])
        #expect(await session.view.hearing.byName == ["Both": .relay, "Remy": .relay])
        radio.hear(localName: Array("010108Both".utf8), rssi: -50)
        radio.hear(localName: Array("010108Air".utf8), rssi: -50)
        #expect(await session.view.hearing.byName == ["Air": .air, "Both": .both, "Remy": .relay],
                "heard over the air too")
        // A watch attaching now learns both ways for Both, from the table;
        // the relay learns only the air's.
        let lines = Lines(views: true), relay = Lines()
        await session.addWatcher { lines.append($0) }
        await session.addWatcher(airOnly: true) { relay.append($0) }
        let tables = try lines.all.compactMap { line -> WatchTable? in
            if case let .table(table) = try ControlWatchLine(parsing: Array(line.utf8)) { table } else { nil }
        }
        let heard = tables.first.map { table in
            Dictionary(uniqueKeysWithValues: zip(table.tally.entries.map(\.name), table.signals.map(\.heard)))
        }
        #expect(heard == ["Ann": .air, "Air": .air, "Both": .both, "Remy": .relay], "\(lines.all)")
        #expect(relay.all.filter { $0.contains(Hex.text(Array("010108Both".utf8))) }.count == 1)
        // The relay stops bringing Both (its topic cleared elsewhere): after
        // the stale time only the air is left.
        clock.advance(by: .seconds(7))
        radio.hear(localName: Array("010108Both".utf8), rssi: -50)
        #expect(await session.view.hearing.byName["Both"] == .air)
        // A cleared topic arrives as card none: the person leaves at once.
        _ = await session.handle(.relayed(payload: Array("0101FFRemy".utf8)))
        #expect(await session.table.peers(in: Channel(rawValue: 1)).map(\.name) == ["Air", "Both"])
        #expect(await session.view.hearing.byName["Remy"] == nil)

        #expect(await session.status.relay == nil)
        _ = await session.handle(.relay(state: "mqtts://b:8883/r connected", connected: true))
        #expect(await session.status.relay == "mqtts://b:8883/r connected")
        #expect(await session.status.relayDownSince == nil)
        let lost = clock.now
        _ = await session.handle(.relay(state: "mqtts://b:8883/r reconnecting (connection refused)", connected: false))
        clock.advance(by: .seconds(1))
        _ = await session.handle(.relay(state: "mqtts://b:8883/r reconnecting (connection refused)", connected: false))
        #expect(await session.status.relayDownSince == lost, "since the first report of the loss")
    }

    @Test func theRelaysStreamLeavesOutWhatCameThroughTheRelay() async throws {
        let (session, listening, watch) = try await watchedSession(name: "Ann")
        let relay = Lines()
        await session.addWatcher(airOnly: true) { relay.append($0) }
        let start = watch.all.count
        // Remy from the relay, again (a refresh, no change), then a phone over the air.
        _ = await session.handle(.relayed(payload: Array("010105Remy".utf8)))
        _ = await session.handle(.relayed(payload: Array("010105Remy".utf8)))
        radio.hear(localName: Array("010108Phone".utf8), rssi: -40)
        await watch.wait(count: start + 3)
        let phone = Hex.text(Array("010108Phone".utf8))
        #expect(watch.all.dropFirst(start).map { $0.contains(#""name":"Remy""#) } == [true, true, false], "a watch gets every reception")
        // The same broadcast reached the relay's stream: the phone alone.
        #expect(relay.all.filter { $0.contains("heard") }.count == 1 && relay.all.contains { $0.contains(phone) })
        await clock.leave(session)
        await listening.value
    }

    @Test func relayRequestsParseAndRoundTrip() throws {
        let request = ControlRequest.relayed(payload: [0x30, 0x31, 0xFF])
        #expect(request.serialized == #"{"request":"relayed","payload":"3031FF"}"#)
        #expect(try ControlRequest(parsing: Array(request.serialized.utf8)) == request)
        #expect(throws: ControlRequestError.self) {
            try ControlRequest(parsing: Array(#"{"request":"relayed","payload":"\#(String(repeating: "41", count: 1025))"}"#.utf8))
        }
        #expect(throws: ControlRequestError.self) { try ControlRequest(parsing: Array(#"{"request":"relayed","payload":"0G"}"#.utf8)) }
        let lost = ControlRequest.relay(state: "mqtt://b:1883/r reconnecting", connected: false)
        #expect(lost.serialized == #"{"request":"relay","state":"mqtt://b:1883/r reconnecting","connected":false}"#)
        #expect(try ControlRequest(parsing: Array(lost.serialized.utf8)) == lost)
        #expect(throws: ControlRequestError.missingField("connected")) {
            try ControlRequest(parsing: Array(#"{"request":"relay","state":"connected"}"#.utf8))
        }
        #expect(ControlRequest.watchAir.serialized == #"{"request":"watch","heard":"air"}"#)
        #expect(try ControlRequest(parsing: Array(ControlRequest.watchAir.serialized.utf8)) == .watchAir)
        #expect(try ControlRequest(parsing: Array(#"{"request":"watch"}"#.utf8)) == .watch)
        #expect(throws: ControlRequestError.self) { try ControlRequest(parsing: Array(#"{"request":"watch","heard":"relay"}"#.utf8)) }
        let line = ControlWatchLine.heard(localName: [0x41], rssi: nil, relayed: true)
        #expect(try ControlWatchLine(parsing: Array(line.serialized.utf8)) == line)
        #expect(ControlWatchLine.heard(localName: [0x41], rssi: -5).serialized == #"{"heard":{"localName":"41","rssi":-5}}"#)
    }
}

extension Dictionary where Key == PeerID {
    /// By name alone: these tests hear estimator sessions, one per name.
    fileprivate var byName: [String: Value] { Dictionary<String, Value>(uniqueKeysWithValues: map { ($0.key.name, $0.value) }) }
}

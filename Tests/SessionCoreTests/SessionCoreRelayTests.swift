import EstimatorKit
import SessionCore
import Testing

/// The relay's outage as the session knows it (`RelayStatus`): since when
/// it has been down, said in the answers of `pick` and `round`, in `status`
/// and in the `me` line; event by event on the test's clock (its clock
/// times in UTC: the harness starts at 22:13:25).
@Suite struct SessionCoreRelayTests {
    static let url = "mqtt://broker:1883/room"
    static let lost = ControlRequest.relay(state: "\(url) reconnecting (connection refused)", connected: false)
    static let back = ControlRequest.relay(state: "\(url) connected", connected: true)
    static let outage = "the relay has been down since 22:13, so teammates reached through it hear nothing "
        + "until it is back (`estimator status` says why)"

    /// The relay down since the harness's start, reported again two minutes later.
    private func downSinceTheStart() -> SessionCoreHarness {
        var session = SessionCoreHarness()
        session.take(.relay("\(Self.url) starting"))
        #expect(session.core.relayDownSince == nil, "starting is not yet down")
        #expect(session.ask(Self.lost).actions.contains(.streamMe), "the watchers learn of the outage")
        session.advance(by: .seconds(120))
        #expect(!session.ask(Self.lost).actions.contains(.streamMe), "still down: nothing new to stream")
        return session
    }

    @Test func pickAndRoundSayTheRelayIsDownAndSinceWhen() {
        var session = downSinceTheStart()
        let began = session.ask(.round(title: "ABC-1 Login")).reply?.message
        #expect(began == "round 1 (ABC-1 Login) began in channel 1; cards cleared; " + Self.outage)
        session.ask(.pick(.eight))
        #expect(Array(SessionCoreHarness.answers(session.putOnAir()).values) == ["picked 8 for ABC-1; " + Self.outage])
        let since = session.now - .seconds(120)
        #expect(session.core.status(now: session.now).relayDownSince == since)
        guard case let .me(_, _, _, _, _, _, relayDownSince, _) = session.core.me else {
            Issue.record("not a me line")
            return
        }
        #expect(relayDownSince == since)
        #expect(session.ask(.settle(.eight)).reply?.message == "round 1 (ABC-1 Login) settled at 8", "only pick and round say it")
    }

    @Test func backOnceConnectedAndDownAgainFromTheNextLoss() {
        var session = downSinceTheStart()
        #expect(session.ask(Self.back).actions.contains(.streamMe))
        #expect(session.core.relayDownSince == nil)
        #expect(session.ask(.round(title: nil)).reply?.message == "round 1 began in channel 1; cards cleared")
        session.ask(.pick(.five))
        #expect(Array(SessionCoreHarness.answers(session.putOnAir()).values) == ["picked 5 for round 1"])
        session.advance(by: .seconds(3600))
        session.ask(Self.lost)
        #expect(session.core.relayDownSince == session.now, "since this loss, not the first")
        #expect(session.ask(.round(title: nil)).reply?.message.hasSuffix("the relay has been down since 23:15, "
            + "so teammates reached through it hear nothing until it is back (`estimator status` says why)") == true)
    }

    @Test func aRelayProcessRestartingIsDownUntilTheNewOneIsConnected() {
        var session = SessionCoreHarness()
        session.ask(Self.back)
        #expect(session.take(.relayRestarting("\(Self.url) restarting the relay (the relay process was killed by signal 9)"))
            .contains(.streamMe))
        #expect(session.core.relayDownSince == session.now)
        session.take(.relayRestarted)
        #expect(session.core.relayDownSince == session.now, "the new relay reports its connection itself")
        session.ask(Self.back)
        #expect(session.core.relayDownSince == nil)
    }

    @Test func withTheRadioDownTooTheRadioComesFirst() {
        var session = downSinceTheStart()
        session.take(.radioFailed(problem: "bluetoothd is not running"))
        #expect(session.ask(.pick(.three)).reply?.message
            == "picked 3; on the air once the radio is back (bluetoothd is not running); " + Self.outage)
    }

    @Test func withoutARelayNothingIsSaid() {
        var session = SessionCoreHarness()
        #expect(session.ask(.round(title: nil)).reply?.message == "round 1 began in channel 1; cards cleared")
        session.ask(.pick(.eight))
        #expect(Array(SessionCoreHarness.answers(session.putOnAir()).values) == ["picked 8 for round 1"])
        #expect(session.core.status(now: session.now).relayDownSince == nil && session.core.status(now: session.now).relay == nil)
    }
}

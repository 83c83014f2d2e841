import EstimatorKit
import Glibc
import SessionDaemon

/// The relay's links for `estimator doctor`: the relay program beside
/// estimator, and each running session's connection to its broker (as the
/// session's `status` reports it). Only when a relay is remembered or runs.
package enum RelayDoctor {
    /// The checks of the relay `remembered` in config.json and of the sessions running in `directory`.
    package static func checks(remembered: RelaySettings?, directory: RuntimeDirectory = .current()) -> [DoctorCheck] {
        var running: [(adapter: String, state: String)] = []
        for adapter in directory.adaptersWithSockets() {
            guard let client = ControlClient(path: directory.socketPath(adapter: adapter), timeout: 2),
                  let relay = (try? client.call(.status))?.status?.relay else { continue }
            running.append((adapter, relay))
        }
        guard remembered != nil || !running.isEmpty else { return [] }
        let program = RelayLauncher.executable
        var checks: [DoctorCheck] = [
            access(program, X_OK) == 0
                ? .pass("relay program", program)
                : .fail("relay program", "\(program) is missing", fix: "install estimator with its relay (`make install`)"),
        ]
        if running.isEmpty, let remembered {
            checks.append(.pass("relay broker", "\(remembered.url) remembered; no session uses it now"))
        }
        for (adapter, state) in running { checks.append(broker(adapter: adapter, state: state)) }
        return checks
    }

    /// The broker check of one running session, from the relay state its
    /// `status` reports.
    package static func broker(adapter: String, state: String) -> DoctorCheck {
        let finding = "\(adapter): \(state)"
        if state.hasSuffix(" connected") || state.contains(" connected; ") {
            return .pass("relay broker", finding)
        }
        if state.contains(" restarting the relay (") {
            return .fail("relay broker", finding,
                         fix: "the session starts the relay again by itself; if it keeps ending, see the session's log")
        }
        if state.contains(" refused (") {
            return .fail("relay broker", finding,
                         fix: "check --relay-user, the password (ESTIMATOR_RELAY_PASSWORD or --relay-password-file) and --relay-ca, then join again")
        }
        return .fail("relay broker", finding,
                     fix: "check that the broker runs and that this machine reaches it; the session keeps trying")
    }
}

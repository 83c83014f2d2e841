import EstimatorKit
import SessionDaemon

/// The history's link for `estimator doctor`: a running session that could
/// not save what it holds (as its `status` reports it). Nothing while every
/// session saves: the history is read and written by sessions alone.
package enum HistoryDoctor {
    /// A failed check per session in `directory` whose history is not saved.
    package static func checks(directory: RuntimeDirectory = .current()) -> [DoctorCheck] {
        directory.adaptersWithSockets().compactMap { adapter in
            guard let client = ControlClient(path: directory.socketPath(adapter: adapter), timeout: 2),
                  let status = (try? client.call(.status))?.status, let since = status.unsavedSince else { return nil }
            return .fail("history", "\(adapter): not saved since \(LocalTime.clock(since))",
                         fix: status.unsavedReason ?? "see the session's log")
        }
    }
}

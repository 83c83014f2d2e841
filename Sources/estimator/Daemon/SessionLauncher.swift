import EstimatorKit
import Glibc
import SessionDaemon

/// Starts a session as a detached background process (`estimator session`,
/// re-executing this binary) and waits until it reports ready or failed
/// over an inherited pipe, so `join` can print the outcome and exit with
/// the session's own code.
enum SessionLauncher {
    /// The descriptor number the child finds the readiness pipe on.
    static let readyFD: Int32 = 3

    /// Where a background session's output goes: `$XDG_STATE_HOME/estimator/<adapter>.log`.
    static func logPath(adapter: String) -> String {
        let configured = Environment.value("XDG_STATE_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
        let base = configured ?? (Environment.value("HOME") ?? Account.current.home) + "/.local/state"
        return "\(base)/estimator/\(adapter).log"
    }

    static func launch(_ settings: JoinSettings, staleAfter stale: StaleSeconds) throws(UserError) -> ControlReply {
        let log = logPath(adapter: settings.adapter)
        // A join that fails removes the log it started; an older one keeps its history.
        let logIsNew = access(log, F_OK) != 0
        try Directories.create(String(log[..<(log.lastIndex(of: "/") ?? log.endIndex)]), mode: 0o700)

        let arguments = ["estimator"] + SessionCommand.arguments(settings, staleAfter: stale, readyFD: readyFD)
        let child: ReadyChild
        do { child = try ReadyChild.start("/proc/self/exe", arguments, log: log, readyFD: readyFD) } catch {
            throw UserError(.software, "Cannot start the session process (\(error)).")
        }
        defer { close(child.readEnd) }

        guard let line = ReadinessLine.read(from: child.readEnd), let reply = try? ControlReply(parsing: line) else {
            var status: Int32 = 0
            waitpid(child.pid, &status, 0)
            throw UserError(.software, "The session ended before it was ready; see \(log).")
        }
        if reply.exitCode != 0 {
            var status: Int32 = 0
            waitpid(child.pid, &status, 0)  // it exits right after reporting; leave no zombie behind
            if logIsNew { unlink(log) }
        }
        return reply
    }
}

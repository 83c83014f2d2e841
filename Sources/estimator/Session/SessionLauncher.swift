import CSpawn
import EstimatorKit
import Glibc

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

    static func launch(_ settings: JoinSettings, staleAfter seconds: Int) throws(UserError) -> ControlReply {
        let log = logPath(adapter: settings.adapter)
        // A join that fails removes the log it started; an older one keeps its history.
        let logIsNew = access(log, F_OK) != 0
        try Directories.create(String(log[..<(log.lastIndex(of: "/") ?? log.endIndex)]), mode: 0o700)

        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw UserError(.software, "Cannot create a pipe (\(SystemCallError("pipe")))." ) }
        // Above the standard descriptors and the target, so dup2 always copies
        // (a dup2 onto itself would keep close-on-exec set).
        let readEnd = fcntl(ends[0], F_DUPFD_CLOEXEC, 10), writeEnd = fcntl(ends[1], F_DUPFD_CLOEXEC, 10)
        close(ends[0])
        close(ends[1])
        defer { close(readEnd) }

        var arguments = ["estimator", "session", "--adapter", settings.adapter,
                         "--channel", String(settings.channel.rawValue), "--name", settings.name.text,
                         "--stale", String(seconds), "--ready-fd", String(readyFD)]
        if let relay = settings.relay {
            arguments += ["--relay", relay.url]
            if let user = relay.user { arguments += ["--relay-user", user] }
            if let file = relay.passwordFile { arguments += ["--relay-password-file", file] }
            if let file = relay.caFile { arguments += ["--relay-ca", file] }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, readyFD)
        // The session keeps nothing else of join's, nor of a caller's.
        estimator_spawn_close_from(&actions, readyFD + 1)
        var argv = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/proc/self/exe", &actions, nil, argv, environ)
        close(writeEnd)
        guard spawned == 0 else {
            throw UserError(.software, "Cannot start the session process (\(SystemCallError(code: spawned, operation: "posix_spawn")))." )
        }

        guard let line = ReadinessLine.read(from: readEnd), let reply = try? ControlReply(parsing: line) else {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throw UserError(.software, "The session ended before it was ready; see \(log).")
        }
        if reply.exitCode != 0 {
            var status: Int32 = 0
            waitpid(pid, &status, 0)  // it exits right after reporting; leave no zombie behind
            if logIsNew { unlink(log) }
        }
        return reply
    }
}

import CSpawn
import Glibc

/// A child process that reports ready or failed with one line on a pipe it
/// finds at a known descriptor: the session (started by `join`) and the
/// relay (started by the session).
package struct ReadyChild {
    package let pid: pid_t
    /// The pipe's read end, close-on-exec; the caller reads the line and closes it.
    package let readEnd: Int32

    /// Starts `program` with `arguments` (`argv[0]` first): standard input
    /// `/dev/null`; standard output and error appended to `log`, or ours
    /// when nil; the write end of a new pipe on `readyFD`; and no other
    /// descriptor of ours. A descriptor the child inherited by chance (a
    /// pipe or socket pair another thread is setting up, the caller's
    /// output) would keep the other end from seeing its end for as long as
    /// the child lives (see `CSpawn`).
    package static func start(_ program: String, _ arguments: [String], log: String?, readyFD: Int32)
        throws(SystemCallError) -> ReadyChild
    {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SystemCallError("pipe") }
        // Above the standard descriptors and the target, so dup2 always copies
        // (a dup2 onto itself would keep close-on-exec set).
        let readEnd = fcntl(ends[0], F_DUPFD_CLOEXEC, 10), writeEnd = fcntl(ends[1], F_DUPFD_CLOEXEC, 10)
        close(ends[0])
        close(ends[1])
        defer { close(writeEnd) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let log {
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, readyFD)
        estimator_spawn_close_from(&actions, readyFD + 1)
        var argv = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else {
            close(readEnd)
            throw SystemCallError(code: spawned, operation: "posix_spawn")
        }
        return ReadyChild(pid: pid, readEnd: readEnd)
    }
}

import Glibc

/// The lock a session holds for its adapter for its whole life (`flock` on
/// `<adapter>.lock`). The kernel releases it when the process dies, even by
/// kill -9, so a crash never blocks the next `join`.
final class SessionLock {
    private let fd: Int32

    /// Takes the lock, or returns nil if a live session holds it.
    init?(path: String) throws(SystemCallError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemCallError("open \(path)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            close(fd)
            if error == EWOULDBLOCK { return nil }
            throw SystemCallError(code: error, operation: "flock \(path)")
        }
        self.fd = fd
    }

    deinit { close(fd) }
}

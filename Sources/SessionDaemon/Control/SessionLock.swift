import Glibc

/// The lock a session holds for its adapter for its whole life (`flock` on
/// `<adapter>.lock`). The kernel releases it when the process dies, even by
/// kill -9, so a crash never blocks the next `join`.
package final class SessionLock {
    private let fd: Int32
    private let path: String

    /// Takes the lock, or returns nil if a live session holds it.
    init?(path: String) throws(SystemCallError) {
        while true {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw SystemCallError("open \(path)") }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let error = errno
                close(fd)
                if error == EWOULDBLOCK { return nil }
                throw SystemCallError(code: error, operation: "flock \(path)")
            }
            // A session that failed removes its file while holding the lock
            // (`remove`): a lock taken on the removed file locks nothing, so
            // take the one now at the path.
            var held = stat(), current = stat()
            if fstat(fd, &held) == 0, stat(path, &current) == 0, held.st_ino == current.st_ino, held.st_dev == current.st_dev {
                self.fd = fd
                self.path = path
                return
            }
            close(fd)
        }
    }

    /// Removes the lock's file, for a session that failed to start: a failed
    /// `join` leaves nothing behind. The lock is held until this object goes.
    func remove() {
        unlink(path)
    }

    /// Lets the lock go before the process ends: an ended session releases
    /// it before it closes its clients, so a `leave` that saw its end finds
    /// the adapter free for the next `join`.
    func release() {
        flock(fd, LOCK_UN)
    }

    deinit { close(fd) }
}

import Glibc

/// File-descriptor helpers: writing all of a buffer, and what the Glibc
/// module does not import (it hides the `_GNU_SOURCE` API such as
/// `struct ucred` and `accept4`).
package enum Descriptor {
    /// Writes all of `bytes` to `fd`: `write` may take part of them, or be
    /// interrupted by a signal before it takes any (EINTR), and goes on.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw SystemCallError("write") }
            offset += n
        }
    }

    /// `struct ucred` from <sys/socket.h>: the peer's pid, uid and gid.
    struct Credentials { var pid: pid_t = 0; var uid: uid_t = 0; var gid: gid_t = 0 }

    /// `SO_PEERCRED` from <asm-generic/socket.h>, the same on every Linux architecture Swift supports.
    private static let soPeerCred: Int32 = 17

    /// The credentials of the process at the other end of a Unix socket, as of `connect`.
    static func peerCredentials(_ fd: Int32) -> Credentials? {
        var credentials = Credentials()
        var length = socklen_t(MemoryLayout<Credentials>.size)
        guard getsockopt(fd, SOL_SOCKET, soPeerCred, &credentials, &length) == 0,
              length == socklen_t(MemoryLayout<Credentials>.size)
        else { return nil }
        return credentials
    }

    static func setNonBlockingCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
}

import Glibc

/// The one line a child process writes on its readiness pipe (a session to
/// `join`, a relay to its session): read until the newline, or until the
/// child closes its end or dies, which ends the read either way.
package enum ReadinessLine {
    /// The first line read from `fd`, without its newline; nil when the
    /// pipe closed before one came.
    package static func read(from fd: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while !bytes.contains(0x0A) {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[..<n]
        }
        guard let end = bytes.firstIndex(of: 0x0A) else { return nil }
        return Array(bytes[..<end])
    }
}

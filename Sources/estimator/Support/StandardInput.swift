import Glibc

/// Reading what a pipe hands a command (`packet decode` without an argument).
enum StandardInput {
    /// The most read: far more than any local name (or its hex), little
    /// enough that a stray `cat /dev/zero |` ends.
    static let limit = 64 * 1024

    /// The bytes up to the first newline (a `\r` before it dropped), or to
    /// the end of input.
    static func firstLine() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit, !bytes.contains(0x0A) {
            let n = read(0, &chunk, chunk.count)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[..<n]
        }
        var line = Array(bytes.prefix { $0 != 0x0A }.prefix(limit))
        if line.last == 0x0D { line.removeLast() }
        return line
    }
}

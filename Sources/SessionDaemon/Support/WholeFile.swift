import Glibc

/// A file read and written whole: read in one go, replaced atomically.
enum WholeFile {
    /// The bytes of the file at `path`; `nil` when there is none. Throws
    /// `tooLarge` past `limit` bytes.
    static func read(_ path: String, limit: Int = .max) throws(WholeFileError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .failed(SystemCallError("open"))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw .failed(SystemCallError("read")) }
            guard n > 0 else { return bytes }
            bytes += chunk[..<n]
            guard bytes.count <= limit else { throw .tooLarge }
        }
    }

    /// Writes `bytes` to a temporary file beside `path` (mode 0600), flushed
    /// to disk, and renames it over `path`: a crash leaves the old file or
    /// the new one, never half of one. A writer that may race another holds
    /// a lock meanwhile (`HistoryFile`).
    static func replace(_ path: String, with bytes: [UInt8]) throws(SystemCallError) {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)  // left by a crash
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemCallError("open") }
        var failure: SystemCallError?
        do { try Descriptor.writeAll(fd, bytes) } catch { failure = error }
        if failure == nil, fsync(fd) != 0 { failure = SystemCallError("fsync") }
        if close(fd) != 0, failure == nil { failure = SystemCallError("close") }
        if failure == nil, rename(temporary, path) != 0 { failure = SystemCallError("rename") }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }
}

/// Why a whole file could not be read.
enum WholeFileError: Error {
    case failed(SystemCallError)
    /// Longer than the reader's limit.
    case tooLarge
}

import EstimatorKit
import Glibc

/// A file read and written whole: read in one go, replaced atomically.
enum WholeFile {
    /// The bytes of the file at `path`; `nil` when there is none. Throws
    /// `tooLarge` past `limit` bytes, and `notRegular` for anything but a
    /// regular file: a FIFO's reading waits for a writer and a device's
    /// (`/dev/zero`) may never end, so every reader would hang on them.
    static func read(_ path: String, limit: Int = .max) throws(WholeFileError) -> [UInt8]? {
        // O_NONBLOCK so that opening a FIFO returns at once rather than
        // waiting for a writer; it changes nothing for a regular file's
        // reads, the only ones made. O_NOCTTY: a terminal never becomes ours.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            let failure = SystemCallError("open")
            // A socket is refused by open itself (ENXIO): say what it is.
            var info = stat()
            if failure.code == ENXIO, stat(path, &info) == 0, let kind = Self.kind(info.st_mode) { throw .notRegular(kind) }
            throw .failed(failure)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .failed(SystemCallError("fstat")) }
        if let kind = Self.kind(info.st_mode) { throw .notRegular(kind) }
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

    /// What a file of `mode` is, as a sentence names it; nil for a regular file.
    private static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }

    /// The refusal of `path`, which is `kind` (`WholeFileError.notRegular`):
    /// one sentence with the reader's `fix`, exit 66 (EX_NOINPUT).
    static func notRegular(_ path: String, is kind: String, fix: String) -> UserError {
        UserError(.noInput, "\(path) is \(kind), not a regular file; \(fix).")
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
    /// Not a regular file: what it is instead ("a FIFO", "a directory").
    case notRegular(String)
}

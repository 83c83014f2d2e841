import EstimatorKit
import Glibc

/// The revealed rounds, oldest first: `$XDG_STATE_HOME/estimator/history.jsonl`,
/// one `HistoryRecord` JSON line per round.
///
/// Sessions on two adapters may save at the same moment. A save holds an
/// exclusive `flock` on `history.lock` beside the file while it reads the
/// file, writes the new text to a temporary file and renames that over it:
/// no save loses another's line, and a reader (which takes no lock) sees
/// the old file or the new one, never half of one. The lock is a file of
/// its own because the rename replaces the history's inode.
struct HistoryFile {
    /// The file's path.
    let path: String

    init(path: String = HistoryFile.defaultPath) { self.path = path }

    /// `$XDG_STATE_HOME/estimator/history.jsonl`, else under `~/.local/state`.
    static var defaultPath: String { Directories.state + "/history.jsonl" }

    private var directory: String { String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }

    /// Adds `record`, or replaces the line with the same id (a re-vote
    /// after the reveal). Damaged lines are kept as they are. Creates the
    /// directory (0700) and the file (0600) if needed.
    func save(_ record: HistoryRecord) throws(UserError) {
        try Directories.create(directory, mode: 0o700)
        let lock = open(directory + "/history.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw cannotWrite(SystemCallError("open")) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw cannotWrite(SystemCallError("flock")) }
        }

        var lines = try contents().split(separator: 0x0A).map(Array.init)
        let line = Array(record.jsonLine.utf8)
        if let index = lines.firstIndex(where: { HistoryRecord(jsonLine: $0)?.id == record.id }) {
            lines[index] = line
        } else {
            lines.append(line)
        }
        try replace(with: Array(lines.joined(separator: [0x0A])) + [0x0A])
    }

    /// The records, oldest first, only the last `last` when given; damaged
    /// lines are skipped. No file yet is no records.
    func read(last: Int? = nil) throws(UserError) -> [HistoryRecord] {
        let records = try contents().split(separator: 0x0A).compactMap { HistoryRecord(jsonLine: $0) }
        guard let last else { return records }
        return Array(records.suffix(max(last, 0)))
    }

    /// The file's bytes; none when there is no file.
    private func contents() throws(UserError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return [] }
            throw cannotRead(SystemCallError("open"))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw cannotRead(SystemCallError("read")) }
            guard n > 0 else { return bytes }
            bytes += chunk[..<n]
        }
    }

    /// Writes `bytes` to a temporary file, flushed to disk, and renames it
    /// over the history: a crash leaves the old file or the new one.
    private func replace(with bytes: [UInt8]) throws(UserError) {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)  // left by a crash; the lock keeps anyone else from using the name now
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw cannotWrite(SystemCallError("open")) }
        var failure: SystemCallError?
        do { try Descriptor.writeAll(fd, bytes) } catch { failure = error }
        if failure == nil, fsync(fd) != 0 { failure = SystemCallError("fsync") }
        if close(fd) != 0, failure == nil { failure = SystemCallError("close") }
        if failure == nil, rename(temporary, path) != 0 { failure = SystemCallError("rename") }
        if let failure {
            unlink(temporary)
            throw cannotWrite(failure)
        }
    }

    private func cannotRead(_ error: SystemCallError) -> UserError {
        UserError(.permission, "Cannot read \(path) (\(error)); check its permissions.")
    }

    private func cannotWrite(_ error: SystemCallError) -> UserError {
        UserError(.permission, "Cannot write \(path) (\(error)); check its directory's permissions.")
    }
}

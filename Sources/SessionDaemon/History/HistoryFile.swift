import EstimatorKit
import Glibc

/// The revealed rounds, oldest first: `$XDG_STATE_HOME/estimator/history.jsonl`,
/// one `HistoryRecord` JSON line per round.
///
/// A line that is no record (cut short by a full disk, edited by hand) is
/// damaged: readers leave it out and say so (`damageReport`), and saves
/// keep it as it is, so nothing is ever rewritten away.
///
/// Sessions on two adapters may save at the same moment. A save holds an
/// exclusive `flock` on `history.lock` beside the file while it reads the
/// file, writes the new text to a temporary file and renames that over it:
/// no save loses another's line, and a reader (which takes no lock) sees
/// the old file or the new one, never half of one. The lock is a file of
/// its own because the rename replaces the history's inode.
package struct HistoryFile {
    /// The file's path.
    package let path: String

    /// The history at `path`.
    package init(path: String = HistoryFile.defaultPath) { self.path = path }

    /// `$XDG_STATE_HOME/estimator/history.jsonl`, else under `~/.local/state`.
    static var defaultPath: String { Directories.state + "/history.jsonl" }

    private var directory: String { String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }

    /// What the file holds.
    package struct Contents: Equatable {
        /// The records, oldest first.
        package var records: [HistoryRecord] = []
        /// The numbers of the lines that are no record (1 for the first line).
        package var damagedLines: [Int] = []

        /// Contents of `records` and `damagedLines`.
        package init(records: [HistoryRecord] = [], damagedLines: [Int] = []) {
            self.records = records
            self.damagedLines = damagedLines
        }
    }

    /// Adds `record`, or merges it into the line of its round: the line
    /// with its id (a re-vote after the reveal, an agreed estimate), else
    /// the latest line of its channel when that is the same round heard by
    /// an earlier session (`HistoryRecord.isSameRound(as:)`, merged as
    /// `merging(_:deck:)` says, its figures counted on `deck`); a new round
    /// right after the latest line loses its `joined` mark
    /// (`continued(by:)`). Damaged
    /// lines are kept as they are. Creates the directory (0700) and the
    /// file (0600) if needed.
    package func save(_ record: HistoryRecord, deck: Deck = .app) throws(UserError) {
        try Directories.create(directory, mode: 0o700)
        let lock = open(directory + "/history.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw cannotWrite(SystemCallError("open")) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw cannotWrite(SystemCallError("flock")) }
        }

        var lines = try bytes().split(separator: 0x0A).map(Array.init)
        let records = lines.map { HistoryRecord(jsonLine: $0) }
        let latest = records.lastIndex { $0?.channel == record.channel }
        let sameRound = latest.flatMap { records[$0]!.isSameRound(as: record) ? $0 : nil }
        if let index = records.firstIndex(where: { $0?.id == record.id }) ?? sameRound {
            lines[index] = Array(records[index]!.merging(record, deck: deck).jsonLine.utf8)
        } else {
            let continued = latest.map { records[$0]!.continued(by: record) } ?? record
            lines.append(Array(continued.jsonLine.utf8))
        }
        // The lock keeps every other saver from the temporary file's name meanwhile.
        do { try WholeFile.replace(path, with: Array(lines.joined(separator: [0x0A])) + [0x0A]) } catch {
            throw cannotWrite(error)
        }
    }

    /// The records and the damaged lines; blank lines are neither. No file
    /// yet is no records.
    package func read() throws(UserError) -> Contents {
        var contents = Contents()
        for (index, line) in try bytes().split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { continue }
            if let record = HistoryRecord(jsonLine: line) {
                contents.records.append(record)
            } else {
                contents.damagedLines.append(index + 1)
            }
        }
        return contents
    }

    /// One sentence for standard error naming the damaged `lines`, or `nil`
    /// when there are none.
    package func damageReport(_ lines: [Int]) -> String? {
        guard let first = lines.first else { return nil }
        let shown = lines.count > 10 ? lines.prefix(9).map(String.init) + ["\(lines.count - 9) more"] : lines.map(String.init)
        let numbers = shown.count == 1 ? shown[0] : shown.dropLast().joined(separator: ", ") + " and " + shown.last!
        return lines.count == 1
            ? "Line \(first) of \(path) is damaged: it is kept in the file and left out here; mend or delete it."
            : "Lines \(numbers) of \(path) are damaged: they are kept in the file and left out here; mend or delete them."
    }

    /// The file's bytes; none when there is no file. One that is no regular
    /// file (a FIFO, a directory) is refused (exit 66), saving included.
    private func bytes() throws(UserError) -> [UInt8] {
        do { return try WholeFile.read(path) ?? [] } catch {
            switch error {
            case let .failed(failure): throw cannotRead(failure)
            case .tooLarge: return []  // no limit: never too large
            case let .notRegular(kind):
                throw WholeFile.notRegular(path, is: kind, fix: "remove it, or set XDG_STATE_HOME to another directory")
            }
        }
    }

    private func cannotRead(_ error: SystemCallError) -> UserError {
        UserError(.permission, "Cannot read \(path) (\(error)); check its permissions.")
    }

    private func cannotWrite(_ error: SystemCallError) -> UserError { .cannotWrite(path, error) }
}

import EstimatorKit
import Glibc

/// The backlog loaded for the meetings to come:
/// `$XDG_STATE_HOME/estimator/backlog.json`, one JSON object (`Backlog.json`).
///
/// `estimator backlog FILE` writes it whole, atomically (`WholeFile`), and
/// every round started without a title reads it afresh with the history
/// (`progress`): so a backlog survives the session's restart, serves the
/// sessions on every adapter and the foreground table's `r`, and what is
/// estimated is never kept twice: the history says it.
package struct BacklogFile {
    /// The file's path.
    let path: String

    /// The backlog at `path`.
    package init(path: String = BacklogFile.defaultPath) { self.path = path }

    /// `$XDG_STATE_HOME/estimator/backlog.json`, else under `~/.local/state`.
    static var defaultPath: String { Directories.state + "/backlog.json" }

    /// Largest file `estimator backlog` reads: a tracker's export of every
    /// field with descriptions, with room to spare.
    static let maximumFileBytes = 16 << 20

    /// The backlog loaded, or `nil` when none is. A damaged file is exit 65,
    /// one that is no regular file (a FIFO, a directory) exit 66.
    func read() throws(UserError) -> Backlog? {
        let bytes: [UInt8]?
        do { bytes = try WholeFile.read(path, limit: Self.maximumFileBytes) } catch {
            switch error {
            case let .failed(failure): throw UserError(.permission, "Cannot read \(path) (\(failure)); check its permissions.")
            case .tooLarge: throw damaged
            case let .notRegular(kind):
                throw WholeFile.notRegular(path, is: kind, fix: "remove it, and load the backlog again with `estimator backlog FILE`")
            }
        }
        guard let bytes else { return nil }
        guard let backlog = Backlog(json: bytes) else { throw damaged }
        return backlog
    }

    /// The backlog's stories and which have an agreed estimate, as
    /// `history` tells it; `nil` when no backlog is loaded. Damaged lines
    /// of the history are left out: `estimator history` names them.
    package func progress(history: HistoryFile = HistoryFile()) throws(UserError) -> BacklogProgress? {
        guard let backlog = try read() else { return nil }
        return BacklogProgress(backlog, history: try history.read().records)
    }

    /// Keeps `backlog` in place of any other.
    package func save(_ backlog: Backlog) throws(UserError) {
        try Directories.create(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]), mode: 0o700)
        do { try WholeFile.replace(path, with: Array((backlog.json + "\n").utf8)) } catch {
            throw UserError(.permission, "Cannot write \(path) (\(error)); check its directory's permissions.")
        }
    }

    /// Forgets the backlog; returns whether there was one.
    package func clear() throws(UserError) -> Bool {
        guard unlink(path) == 0 else {
            if errno == ENOENT { return false }
            throw UserError(.permission, "Cannot remove \(path) (\(SystemCallError("unlink"))); check its directory's permissions.")
        }
        return true
    }

    private var damaged: UserError {
        UserError(.data, "\(path) is damaged; load the backlog again with `estimator backlog FILE`.")
    }

    /// Reads the backlog in the file at `path` (as typed), a tracker's
    /// export or a plain list, the columns as named if they are
    /// (`Backlog.init(parsing:named:keyColumn:summaryColumn:)`). A file that
    /// is no backlog is exit 65, one that is not there exit 64, and one
    /// that is no regular file (a FIFO, a directory, a device) exit 66.
    package static func load(_ path: String, keyColumn: BacklogColumn? = nil,
                             summaryColumn: BacklogColumn? = nil) throws(UserError) -> Backlog {
        let bytes: [UInt8]?
        do { bytes = try WholeFile.read(path, limit: maximumFileBytes) } catch {
            switch error {
            case let .failed(failure): throw UserError(failure.code == EACCES ? .permission : .data, "Cannot read \(path) (\(failure)).")
            case .tooLarge:
                throw UserError(.data, "\(path) is larger than \(maximumFileBytes >> 20) MiB; export only this meeting's stories.")
            case let .notRegular(kind):
                throw WholeFile.notRegular(path, is: kind, fix: "give the path of a file of stories, a tracker's export or a plain list")
            }
        }
        guard let bytes else { throw UserError(.usage, "There is no file \(path); give the path of the stories to load.") }
        do { return try Backlog(parsing: bytes, named: path, keyColumn: keyColumn, summaryColumn: summaryColumn) } catch {
            throw UserError(.data, error.description)
        }
    }
}

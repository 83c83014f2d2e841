import DBusTestSupport
import Foundation
import Testing

/// Every file estimator reads, given or found where it belongs, refused at
/// once when it is no regular file: one sentence naming it and the fix,
/// exit 66. Without the rule a FIFO's open waits for a writer and
/// /dev/zero's reading never ends, so each command runs under `timeout`:
/// a hang fails the test (exit 124) instead of holding the suite.
@Suite(.timeLimit(.minutes(2))) final class NonRegularFileTests {
    /// What stands where a file belongs.
    enum Kind: String, CaseIterable, Sendable {
        case fifo, directory, device

        /// As the sentence names it.
        var named: String {
            switch self {
            case .fifo: "a FIFO"
            case .directory: "a directory"
            case .device: "a character device"
            }
        }
    }

    let root: String

    init() throws { root = try XDGHome.make() }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Makes `path` a `kind`: a FIFO, a directory, or a link to /dev/zero
    /// (making a device takes root; open follows the link).
    func make(_ kind: Kind, at path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        switch kind {
        case .fifo: try #require(mkfifo(path, 0o600) == 0)
        case .directory: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .device: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        }
    }

    /// estimator with `arguments` in the test's XDG directories, killed
    /// after 10 s.
    func run(_ arguments: [String]) throws -> EstimatorProcess.Result {
        try EstimatorProcess.run(arguments: arguments, through: ["/usr/bin/timeout", "--kill-after=2", "10"],
                                 environment: XDGHome.environment(root: root))
    }

    func expectRefused(_ result: EstimatorProcess.Result, _ path: String, _ kind: Kind, fix: String) {
        #expect(result.status == 66, "\(result.status): \(result.stderr)")
        #expect(result.stderr == "Error: \(path) is \(kind.named), not a regular file; \(fix).\n")
        #expect(result.stdout == "")
    }

    @Test(arguments: [["config"], ["join", "--channel", "1"], ["watch", "--once"]], Kind.allCases)
    func theConfigFile(command: [String], kind: Kind) throws {
        let path = "\(root)/config/estimator/config.json"
        try make(kind, at: path)
        expectRefused(try run(command), path, kind, fix: "remove it, or set XDG_CONFIG_HOME to another directory")
    }

    @Test(arguments: Kind.allCases)
    func theBacklogFileGiven(kind: Kind) throws {
        let path = kind == .device ? "/dev/zero" : "\(root)/stories.csv"
        if kind != .device { try make(kind, at: path) }
        expectRefused(try run(["backlog", path]), path, kind,
                      fix: "give the path of a file of stories, a tracker's export or a plain list")
    }

    @Test(arguments: Kind.allCases)
    func theStoredBacklog(kind: Kind) throws {
        let path = "\(root)/state/estimator/backlog.json"
        try make(kind, at: path)
        expectRefused(try run(["backlog"]), path, kind,
                      fix: "remove it, and load the backlog again with `estimator backlog FILE`")
    }

    @Test(arguments: Kind.allCases)
    func theHistory(kind: Kind) throws {
        let path = "\(root)/state/estimator/history.jsonl"
        try make(kind, at: path)
        expectRefused(try run(["history"]), path, kind, fix: "remove it, or set XDG_STATE_HOME to another directory")
    }

    /// Loading a backlog reads the history too, for what is agreed already.
    @Test func loadingABacklogBesideAHistoryThatIsAFIFO() throws {
        let history = "\(root)/state/estimator/history.jsonl"
        try make(.fifo, at: history)
        let stories = "\(root)/stories.txt"
        try "ABC-1 Login\n".write(toFile: stories, atomically: true, encoding: .utf8)
        expectRefused(try run(["backlog", stories]), history, .fifo, fix: "remove it, or set XDG_STATE_HOME to another directory")
    }
}

import DBusTestSupport
import Foundation
import Testing

/// A history the session cannot write, through the built binary: the
/// session's file size limit lowered to nothing (`prlimit`, as root or
/// not) makes every save fail as a full disk does, and raised again lets
/// the next save write what was held.
@Suite(.timeLimit(.minutes(2))) struct HistoryUnsavedCLITests {
    @Test func aSettleNotSavedFailsStatusSaysSinceWhenAndTheNextSaveWritesIt() async throws {
        let sandbox = try await SessionSandbox.start()
        let joined = try await sandbox.run("join", "--channel", "3", "--name", "Ann")
        let session = try sandbox.sessionPID(joined)
        try await sandbox.run("round")
        try await sandbox.run("pick", "5")
        // Alone, my vote reveals by itself once the room has been heard (4 s
        // after the join); a slow start gets there before `reveal` does.
        let revealed = try await sandbox.run("reveal")
        #expect(revealed.status == 0 || revealed.stderr.contains("round 1 is revealed already"), "\(revealed)")
        let history = "\(sandbox.root)/state/estimator/history.jsonl"

        try await limitFileSize(of: session, to: "0")
        let settled = try await sandbox.run("settle", "2")
        #expect(settled.status == 74, "\(settled)")
        #expect(settled.stdout.isEmpty)
        #expect(settled.stderr == "Error: round 1 settled at 2, but the history does not have it: cannot write \(history) "
            + "(write: File too large); raise the file size limit (`ulimit -f`), and the session saves it once it can.\n")
        #expect(try !String(contentsOfFile: history, encoding: .utf8).contains(#""agreed":"2""#), "the file has the reveal alone")
        let status = try await sandbox.run("status")
        #expect(status.stdout.contains("\nhistory: not saved since "), "\(status.stdout)")
        #expect(status.stdout.contains(": Cannot write \(history)"), "why, with the fix")

        try await limitFileSize(of: session, to: "unlimited")
        let revote = try await sandbox.run("pick", "8")
        #expect(revote.status == 0, "\(revote.stderr)")
        let saved = try String(contentsOfFile: history, encoding: .utf8)
        #expect(saved.contains(#""agreed":"2""#) && saved.contains(#""card":"8""#), "the settle held, and the re-vote: \(saved)")
        #expect(try await !sandbox.run("status").stdout.contains("not saved"))
        try await sandbox.run("leave")
    }

    /// Sets the soft file size limit of the process `pid` (util-linux's
    /// prlimit: Glibc's module hides the call), off the pool.
    private func limitFileSize(of pid: pid_t, to limit: String) async throws {
        let status = try await offPool {
            let process = try ChildProcess("/usr/bin/prlimit", ["--pid", String(pid), "--fsize=\(limit):"])
            process.waitUntilExit()
            return process.terminationStatus
        }
        try #require(status == 0)
    }
}

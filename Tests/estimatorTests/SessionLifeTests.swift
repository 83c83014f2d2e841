import DBusTestSupport
import Foundation
import Testing

/// A session's start and end as commands see them, without Bluetooth
/// (`--adapter none`, a relay on a local mosquitto): `leave` returns once
/// the session has ended, so a `join` right after starts a new one; two
/// joins at once make one session.
@Suite(.timeLimit(.minutes(2))) struct SessionLifeTests {
    @Test func aJoinRightAfterLeaveStartsANewSessionEveryTime() async throws {
        let broker = try await TestBroker.start(tls: false)
        let ann = try Teammate("Ann")
        var pid = try #require(try sessionPID(await ann.join(broker)))
        for time in 1...5 {
            let left = try await ann.run("leave", "--adapter", "none")
            #expect(left.status == 0 && left.stdout == "left channel 3\n", "time \(time): \(left.stderr)")
            #expect(isFree("\(ann.root)/run/estimator/none.lock"), "time \(time): the adapter is free when leave returns")
            #expect(!FileManager.default.fileExists(atPath: "\(ann.root)/run/estimator/none.sock"), "time \(time)")
            let joined = try await ann.join(broker)
            #expect(joined.status == 0, "time \(time): \(joined.stderr)")
            let next = try #require(sessionPID(joined), "time \(time): \(joined.stdout)")
            #expect(next != pid, "time \(time): a new session")
            pid = next
        }
        #expect(try await ann.run("leave", "--adapter", "none").status == 0)
    }

    @Test func twoJoinsAtOnceMakeOneSessionAndBothSaySo() async throws {
        let broker = try await TestBroker.start(tls: false)
        let ann = try Teammate("Ann")
        async let first = ann.join(broker)
        async let second = ann.join(broker)
        let both = try await [first, second]
        for joined in both {
            #expect(joined.status == 0, "\(joined.stderr)")
            #expect(joined.stdout.hasPrefix("joined channel 3 as Ann on none (session pid "), "\(joined.stdout)")
        }
        let pids = Set(both.compactMap(sessionPID))
        #expect(pids.count == 1, "one session, named by both: \(both.map(\.stdout))")
        let status = try await ann.run("status", "--adapter", "none")
        #expect(status.stdout.hasPrefix("session pid \(pids.first ?? 0) on none: channel 3 as Ann"), "\(status.stdout)")
        #expect(try await ann.run("leave", "--adapter", "none").status == 0)
    }

    /// Whether no process holds the lock at `path`; takes it and lets it go at once.
    private func isFree(_ path: String) -> Bool {
        let fd = open(path, O_RDWR)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    private func sessionPID(_ joined: EstimatorProcess.Result) -> pid_t? {
        pid_t(joined.stdout.split(separator: "pid ").last?.prefix { $0.isNumber } ?? "")
    }
}

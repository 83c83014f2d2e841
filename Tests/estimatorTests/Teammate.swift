import DBusTestSupport
import Foundation
import Testing

/// A teammate's machine for the relay tests: its own XDG directories, so
/// several sessions without Bluetooth (`--adapter none`) run side by side.
final class Teammate: Sendable {
    let root: String
    let name: String

    init(_ name: String) throws {
        self.name = name
        root = try XDGHome.make()
    }

    var configFile: String { "\(root)/config/estimator/config.json" }
    var log: String { "\(root)/state/estimator/none.log" }

    func environment(password: String?) -> [String: String] {
        var environment = XDGHome.environment(root: root)
        environment["ESTIMATOR_RELAY_PASSWORD"] = password
        return environment
    }

    @discardableResult
    func run(_ arguments: String..., password: String? = TestBroker.password) async throws -> EstimatorProcess.Result {
        let environment = environment(password: password)
        return try await offPool { try EstimatorProcess.run(arguments: arguments, environment: environment) }
    }

    /// Joins `broker`'s room without Bluetooth, with the password in the environment.
    @discardableResult
    func join(_ broker: TestBroker, channel: Int = 3, password: String? = TestBroker.password,
              extra: [String] = []) async throws -> EstimatorProcess.Result {
        var arguments = ["join", "--adapter", "none", "--name", name, "--channel", String(channel),
                         "--relay", broker.url, "--relay-user", TestBroker.user]
        if broker.tls, !extra.contains("--relay-ca") { arguments += ["--relay-ca", broker.caFile] }
        let environment = environment(password: password)
        let all = arguments + extra
        return try await offPool { try EstimatorProcess.run(arguments: all, environment: environment) }
    }

    /// `estimator watch` on my session, its output as lines.
    func watch(_ arguments: String...) throws -> (RunningEstimator, LineStream) {
        let out = Pipe(), err = Pipe()
        let process = try ChildProcess(EstimatorProcess.executable.path, ["watch", "--adapter", "none"] + arguments,
                                       environment: environment(password: nil), output: out, error: err)
        return (RunningEstimator(process: process, out: out, err: err), LineStream(out))
    }

    /// The session's pid and its children's (the relay), from /proc.
    func sessionAndRelay(_ joined: EstimatorProcess.Result) throws -> (session: pid_t, relay: pid_t) {
        try estimatorTests.sessionAndRelay(joined)
    }

    deinit {
        let environment = environment(password: nil)
        let root = root
        inBackground {
            _ = try? EstimatorProcess.run(arguments: ["leave", "--adapter", "none"], environment: environment)
            try? FileManager.default.removeItem(atPath: root)
        }
    }
}

/// The pid of the session `join` started and of its child, the relay, from /proc.
func sessionAndRelay(_ joined: EstimatorProcess.Result) throws -> (session: pid_t, relay: pid_t) {
    let digits = joined.stdout.split(separator: "pid ").last?.prefix { $0.isNumber } ?? ""
    let session = try #require(pid_t(digits))
    let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(session)/task")
    let children = tasks.compactMap { try? String(contentsOfFile: "/proc/\(session)/task/\($0)/children", encoding: .utf8) }
        .flatMap { $0.split(separator: " ") }.compactMap { pid_t($0) }
    return (session, try #require(children.first))
}

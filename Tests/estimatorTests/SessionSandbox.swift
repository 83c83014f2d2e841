import DBusTestSupport
import Foundation
import Testing

/// Whole `estimator` processes, each test with its own XDG directories and
/// its own system bus: a private dbus-daemon with a fake bluetoothd
/// (`FakeSystem`), so sessions run on the real BlueZ radio code.
final class SessionSandbox: Sendable {
    let root: String
    let system: FakeSystem

    /// A sandbox on `system`, by default a fake bluetoothd with hci0 and hci1.
    static func start(_ system: FakeSystem? = nil) async throws -> SessionSandbox {
        if let system { return try SessionSandbox(system: system) }
        return try SessionSandbox(system: try await FakeSystem.start())
    }

    private init(system: FakeSystem) throws {
        self.system = system
        root = try XDGHome.make()
    }

    var configFile: String { "\(root)/config/estimator/config.json" }
    var runtimeDirectory: String { "\(root)/run/estimator" }

    var environment: [String: String] {
        var environment = XDGHome.environment(root: root)
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = system.bus.address
        return environment
    }

    @discardableResult
    func run(_ arguments: String..., through wrapper: [String] = []) async throws -> EstimatorProcess.Result {
        try await run(arguments: arguments, through: wrapper)
    }

    /// Runs estimator to the end, waiting off Swift's cooperative pool: the
    /// fake bluetoothd it talks to is served from that pool meanwhile. With
    /// a `wrapper` (a program and its arguments, such as `setpriv`), that
    /// program runs estimator.
    @discardableResult
    func run(arguments: [String], through wrapper: [String] = []) async throws -> EstimatorProcess.Result {
        try await offPool { [environment] in
            try EstimatorProcess.run(arguments: arguments, through: wrapper, environment: environment)
        }
    }

    /// The pid `join` printed.
    func sessionPID(_ result: EstimatorProcess.Result) throws -> pid_t {
        let digits = result.stdout.split(separator: "pid ").last?.prefix { $0.isNumber } ?? ""
        return try #require(pid_t(digits))
    }

    /// Waits (without sleeping) for the session on `adapter` to be gone:
    /// it holds its adapter's lock until it exits.
    func waitForSessionEnd(adapter: String = "hci0") async throws {
        let path = "\(runtimeDirectory)/\(adapter).lock"
        try await offPool {
            let fd = open(path, O_RDWR)
            guard fd >= 0 else { return }
            flock(fd, LOCK_EX)
            close(fd)
        }
    }

    deinit {
        // End whatever a failing test left running, off the pool (the fake
        // bluetoothd it holds on to must go on answering until then).
        let sandbox = SandboxRemains(root: root, environment: environment, system: system)
        inBackground { sandbox.clean() }
    }
}

/// What a finished sandbox leaves to clean up.
private struct SandboxRemains: Sendable {
    let root: String
    let environment: [String: String]
    let system: FakeSystem

    func clean() {
        for adapter in ["hci0", "hci1"] {
            guard let leave = try? ChildProcess(EstimatorProcess.executable.path, ["leave", "--adapter", adapter],
                                                environment: environment) else { continue }
            leave.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// An estimator process left running, its output and error as pipes.
struct RunningEstimator: @unchecked Sendable {
    let process: ChildProcess
    let out: Pipe
    let err: Pipe
    /// Its standard input, when the test types into it.
    var input: Pipe? = nil

    /// Types `text` on its standard input.
    func type(_ text: String) { input?.fileHandleForWriting.write(Data(text.utf8)) }

    /// Reads what is left of its output and error, and waits for it to end.
    func finish() -> (stdout: String, stderr: String) { process.finish(out, err) }
}

extension SessionSandbox {
    /// Starts estimator and leaves it running (`watch`, a foreground
    /// session); `adding` goes into its environment beside the sandbox's.
    func launch(_ arguments: String..., adding extra: [String: String] = [:]) throws -> RunningEstimator {
        try launch(arguments: arguments, adding: extra)
    }

    /// As `launch(_:adding:)`; with `typing`, its standard input is a pipe
    /// the test types into (`RunningEstimator.type`).
    func launch(arguments: [String], adding extra: [String: String] = [:], typing: Bool = false) throws -> RunningEstimator {
        let out = Pipe(), err = Pipe(), input = typing ? Pipe() : nil
        let process = try ChildProcess(EstimatorProcess.executable.path, arguments,
                                       environment: environment.merging(extra) { $1 }, input: input, output: out, error: err)
        return RunningEstimator(process: process, out: out, err: err, input: input)
    }
}

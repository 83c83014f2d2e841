import CSpawn
import DBus
import Foundation

/// A private `dbus-daemon` for tests: its own config, its own socket in a temporary
/// directory, never the machine's buses. Safe to run many at once.
///
///     let bus = try await TestBus.start()
///     let a = try await bus.connect(), b = try await bus.connect()
///     ...
///     bus.kill()          // the daemon dies as in a crash; also done on deinit
///
/// The daemon runs under a small shell guardian that kills it when asked or when the
/// test process goes away (its stdin closes), so an aborted test run leaves nothing behind.
public final class TestBus: Sendable {
    /// The address clients connect to.
    public let address: String
    /// The daemon's process id.
    public let daemonID: Int32
    private let guardianID: pid_t
    private let control: Int32
    private let output: Int32
    private let directory: String

    /// Starts a daemon. `policy` replaces the default allow-everything `<policy>`
    /// elements (to test access-denied paths); `limits` adds `<limit>` elements.
    public static func start(policy: String? = nil, limits: [String: Int] = [:]) async throws -> TestBus {
        let directory = NSTemporaryDirectory() + "estimator-dbus-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = directory + "/bus.conf"
        let limitElements = limits.map { "  <limit name=\"\($0.key)\">\($0.value)</limit>" }.joined(separator: "\n")
        let policyElements = policy ?? Self.policy()
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory)/bus</listen>
              <auth>EXTERNAL</auth>
            \(policyElements)
            \(limitElements)
            </busconfig>
            """.write(toFile: config, atomically: true, encoding: .utf8)

        let script = """
            /usr/bin/dbus-daemon --config-file="$1" --nofork --print-address --nosyslog </dev/null 2>"$2" &
            daemon=$!
            echo "pid $daemon"
            read command
            kill -9 $daemon 2>/dev/null
            wait $daemon
            echo stopped
            """
        let (guardian, control, output) = try spawn(["/bin/sh", "-c", script, "sh", config, directory + "/daemon.log"])
        // The daemon prints its address once it listens: that line is the readiness event.
        // Read off the cooperative pool: blocking it would stall the
        // in-process code that tests run meanwhile (many buses start at once).
        let lines = try await offPool { (readLine(output), readLine(output)) }
        let address = [lines.0, lines.1].compactMap { $0 }.first { $0.hasPrefix("unix:") }
        let pid = [lines.0, lines.1].compactMap { $0 }.first { $0.hasPrefix("pid ") }.flatMap { Int32($0.dropFirst(4)) }
        let bus = TestBus(
            address: address ?? "", daemonID: pid ?? -1, guardianID: guardian, control: control, output: output,
            directory: directory)
        guard address != nil, pid != nil else {
            let log = (try? String(contentsOfFile: directory + "/daemon.log", encoding: .utf8)) ?? ""
            throw DBusError(name: .noServer, message: "dbus-daemon did not start: \(log)")
        }
        return bus
    }

    /// A `<policy>` that allows everything but sending to the names in
    /// `denied` (to refuse a test what a real system bus's policy can).
    public static func policy(denyingSendTo denied: [String] = []) -> String {
        let denials = denied.map { "    <deny send_destination=\"\($0)\"/>\n" }.joined()
        return """
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
            \(denials)  </policy>
            """
    }

    private init(address: String, daemonID: Int32, guardianID: pid_t, control: Int32, output: Int32, directory: String) {
        self.address = address
        self.daemonID = daemonID
        self.guardianID = guardianID
        self.control = control
        self.output = output
        self.directory = directory
    }

    deinit {
        kill()
        close(control)
        close(output)
        var status: Int32 = 0
        waitpid(guardianID, &status, 0)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A new connection to this bus.
    public func connect() async throws -> Connection {
        try await Connection.connect(address: address)
    }

    /// Kills the daemon (SIGKILL, as a crash would) and returns once it is gone.
    /// Connections to it see the socket close. Calling it again does nothing.
    public func kill() {
        var newline = UInt8(ascii: "\n")
        guard write(control, &newline, 1) == 1 else { return }
        while let line = Self.readLine(output), line != "stopped" {}
    }

    /// Reads one line from a blocking pipe; nil at end of file.
    private static func readLine(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count == 1 {
                if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(byte)
            } else if count == 0 || errno != EINTR {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// Spawns with a clean signal mask (test runners block signals, and children
    /// inherit that), stdin and stdout as pipes to us.
    private static func spawn(_ arguments: [String]) throws -> (pid_t, control: Int32, output: Int32) {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw DBusError(name: .failed, message: "pipe failed") }
        _ = fcntl(input[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(output[0], F_SETFD, FD_CLOEXEC)
        // Writing to a guardian that already exited must be an error, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else: a pipe or socket pair another test is setting up for
        // its own child at this moment would stay open in the daemon, and
        // that child's end would never come (Foundation's Process would never
        // see it exit).
        estimator_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        close(input[0])
        close(output[1])
        guard result == 0 else {
            close(input[1])
            close(output[0])
            throw DBusError(name: .failed, message: "cannot start dbus-daemon (error \(result))")
        }
        return (pid, input[1], output[0])
    }
}

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
    private let guardian: ChildProcess
    /// The guardian's standard input: a line asks it to kill the daemon.
    private let control: Pipe
    /// The guardian's standard output: the daemon's pid and address, then "stopped".
    private let output: Pipe
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
        // Writing to a guardian that already exited must be an error, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let control = Pipe(), output = Pipe()
        let guardian = try ChildProcess("/bin/sh", ["-c", script, "sh", config, directory + "/daemon.log"],
                                        input: control, output: output)
        // The daemon prints its address once it listens: that line is the readiness event.
        // Read off the cooperative pool: blocking it would stall the
        // in-process code that tests run meanwhile (many buses start at once).
        let lines = try await offPool { (readLine(output), readLine(output)) }
        let address = [lines.0, lines.1].compactMap { $0 }.first { $0.hasPrefix("unix:") }
        let pid = [lines.0, lines.1].compactMap { $0 }.first { $0.hasPrefix("pid ") }.flatMap { Int32($0.dropFirst(4)) }
        let bus = TestBus(
            address: address ?? "", daemonID: pid ?? -1, guardian: guardian, control: control, output: output,
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

    private init(address: String, daemonID: Int32, guardian: ChildProcess, control: Pipe, output: Pipe, directory: String) {
        self.address = address
        self.daemonID = daemonID
        self.guardian = guardian
        self.control = control
        self.output = output
        self.directory = directory
    }

    deinit {
        kill()
        try? control.fileHandleForWriting.close()
        guardian.waitUntilExit()
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
        guard write(control.fileHandleForWriting.fileDescriptor, &newline, 1) == 1 else { return }
        while let line = Self.readLine(output), line != "stopped" {}
    }

    /// Reads one line from a blocking pipe; nil at end of file.
    private static func readLine(_ pipe: Pipe) -> String? {
        let fd = pipe.fileHandleForReading.fileDescriptor
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
}

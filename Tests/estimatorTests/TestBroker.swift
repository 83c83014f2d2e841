import DBusTestSupport
import Foundation
import Testing

/// A real mosquitto on a free loopback port, for the relay tests: with
/// password authentication and, when asked, TLS with a CA made for the test.
final class TestBroker: @unchecked Sendable {
    let directory: String
    private(set) var port: Int
    let tls: Bool
    /// The user the broker knows, and the password file holding only the password.
    static let user = "ann"
    static let password = "s3cret pass"
    private var process: ChildProcess?
    private var log: LineStream?

    /// Starts mosquitto and returns once it listens (its log says so). A
    /// free port can be taken by another test's connection before mosquitto
    /// binds it: then another port. Off the cooperative pool, as is every
    /// call here that waits on a child (openssl, mosquitto, its clients).
    static func start(tls: Bool) async throws -> TestBroker {
        try await offPool {
            let broker = try TestBroker(tls: tls)
            for _ in 0..<5 {
                if try broker.launch() { return broker }
                broker.port = try freePort()
            }
            throw LineStream.Timeout(seen: ["no free port for mosquitto after 5 tries"])
        }
    }

    private init(tls: Bool) throws {
        directory = try TemporaryDirectory.make()
        self.tls = tls
        port = try Self.freePort()
        try runQuietly("/usr/bin/mosquitto_passwd", ["-b", "-c", "\(directory)/passwd", Self.user, Self.password])
        var config = """
            allow_anonymous false
            password_file \(directory)/passwd
            persistence false
            log_dest stderr
            log_type all

            """
        // Run as root, mosquitto would switch to its own user, which cannot
        // read the test's private directory.
        if getuid() == 0 { config += "user root\n" }
        if tls {
            try TestCA.make(in: directory, name: "ca", server: true)
            try TestCA.make(in: directory, name: "other", server: false)
            config += "cafile \(directory)/ca.crt\ncertfile \(directory)/server.crt\nkeyfile \(directory)/server.key\n"
        }
        try config.write(toFile: "\(directory)/common.conf", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: "\(directory)/passwd")
    }

    var url: String { "\(tls ? "mqtts" : "mqtt")://127.0.0.1:\(port)/room" }
    var caFile: String { "\(directory)/ca.crt" }
    var otherCAFile: String { "\(directory)/other.crt" }

    /// Starts mosquitto on `port`; false when the port was taken meanwhile.
    private func launch() throws -> Bool {
        let common = try String(contentsOfFile: "\(directory)/common.conf", encoding: .utf8)
        try "listener \(port) 127.0.0.1\n\(common)".write(toFile: "\(directory)/mosquitto.conf", atomically: true, encoding: .utf8)
        let err = Pipe()
        let process = try ChildProcess("/usr/sbin/mosquitto", ["-c", "\(directory)/mosquitto.conf"], error: err)
        let log = LineStream(err)
        // Printed once every listener is open; a failed bind ends it instead.
        let line = try log.waitFor { $0.contains(" running") || $0.contains("Error: Address already in use") }
        guard line.contains(" running") else {
            process.waitUntilExit()
            return false
        }
        self.process = process
        self.log = log
        // From here on nobody waits for a line of it: it goes to a file, so
        // that a test of many messages never fills the pipe and stalls the
        // broker (`log_type all` writes several lines a message).
        let fd = err.fileHandleForReading.fileDescriptor
        let file = open("\(directory)/mosquitto.log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fd, &chunk, chunk.count)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                if file >= 0 { _ = chunk.withUnsafeBytes { write(file, $0.baseAddress, n) } }
            }
            if file >= 0 { close(file) }
        }
        return true
    }

    /// Kills the broker (it forgets everything: no persistence) and waits for
    /// it, which SIGKILL makes short enough to do on the pool.
    func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Starts it again on the same port.
    func restart() async throws {
        try await offPool {
            self.stop()
            try #require(try self.launch(), "port \(self.port) taken while the broker was down")
        }
    }

    /// A `mosquitto_sub` on everything under the room, subscribed when it
    /// returns; one line a message: `TOPIC [HEX PAYLOAD] RETAINED` (and its
    /// debug lines).
    func subscribe() async throws -> Subscriber {
        try await offPool { try self.subscribeBlocking() }
    }

    private func subscribeBlocking() throws -> Subscriber {
        let out = Pipe()
        // Line-buffered: its debug lines are not flushed by themselves.
        let process = try ChildProcess(
            "/usr/bin/stdbuf", ["-oL", "/usr/bin/mosquitto_sub"] + clientArguments + ["-d", "-t", "estimator/1/room/#", "-F", "%t [%x] %r"],
            output: out)
        let subscriber = Subscriber(process: process, lines: LineStream(out))
        // With -d it reports the broker's SUBACK: from then on it hears everything.
        do { try subscriber.lines.waitFor { $0.contains("received SUBACK") } } catch {
            subscriber.stop()
            throw error
        }
        return subscriber
    }

    /// Whether a new subscriber gets a retained message on `topic`. It
    /// subscribes to `topic`, then to a marker topic the test publishes
    /// retained: the broker sends each filter's retained messages in that
    /// order, so the marker's arrival says that `topic`'s would have come.
    func holdsRetained(_ topic: String) async throws -> Bool {
        try await offPool { try self.holdsRetainedBlocking(topic) }
    }

    private func holdsRetainedBlocking(_ topic: String) throws -> Bool {
        let marker = "test/marker"
        try publishBlocking(marker, Array("marker".utf8))
        let out = Pipe()
        let process = try ChildProcess(
            "/usr/bin/stdbuf", ["-oL", "/usr/bin/mosquitto_sub"] + clientArguments
                + ["-V", "mqttv5", "--retained-only", "-t", topic, "-t", marker, "-F", "%t"],
            output: out)
        defer { Subscriber(process: process, lines: LineStream(out)).stop() }
        var held = false
        _ = try LineStream(out).waitFor { line in
            if line == topic { held = true }
            return line == marker
        }
        return held
    }

    /// Publishes `payload` (any bytes) retained on `topic`, with an
    /// expiry of `expiry` seconds (MQTT 5) as a relay's presence has, or
    /// none.
    func publish(_ topic: String, _ payload: [UInt8], retain: Bool = true, expiry: Int? = 30) async throws {
        try await offPool { try self.publishBlocking(topic, payload, retain: retain, expiry: expiry) }
    }

    private func publishBlocking(_ topic: String, _ payload: [UInt8], retain: Bool = true, expiry: Int? = nil) throws {
        let file = "\(directory)/payload-\(UUID().uuidString)"
        try Data(payload).write(to: URL(fileURLWithPath: file))
        let expiring = expiry.map { ["-V", "mqttv5", "-D", "publish", "message-expiry-interval", String($0)] } ?? []
        try runQuietly("/usr/bin/mosquitto_pub",
                       clientArguments + expiring + ["-q", "1", "-t", topic, "-f", file] + (retain ? ["-r"] : []))
    }

    private var clientArguments: [String] {
        ["-h", "127.0.0.1", "-p", String(port), "-u", Self.user, "-P", Self.password] + (tls ? ["--cafile", caFile] : [])
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A running `mosquitto_sub`.
struct Subscriber: @unchecked Sendable {
    let process: ChildProcess
    let lines: LineStream

    /// Kills it and waits, briefly: SIGKILL.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// A test CA made with openssl: `NAME.crt`, and with `server`, a server
/// certificate for 127.0.0.1 signed by it.
enum TestCA {
    static func make(in directory: String, name: String, server: Bool) throws {
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(["req", "-x509"] + ec + ["-keyout", "\(directory)/\(name).key", "-out", "\(directory)/\(name).crt",
                     "-subj", "/CN=estimator test \(name)", "-days", "2"])
        guard server else { return }
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: "\(directory)/san.ext", atomically: true, encoding: .utf8)
        try openssl(["req"] + ec + ["-keyout", "\(directory)/server.key", "-out", "\(directory)/server.csr", "-subj", "/CN=127.0.0.1"])
        try openssl(["x509", "-req", "-in", "\(directory)/server.csr", "-CA", "\(directory)/\(name).crt",
                     "-CAkey", "\(directory)/\(name).key", "-CAcreateserial", "-out", "\(directory)/server.crt",
                     "-days", "2", "-extfile", "\(directory)/san.ext"])
    }

    private static func openssl(_ arguments: [String]) throws { try runQuietly("/usr/bin/openssl", arguments) }
}

/// Runs a set-up tool to its end, its output dropped; fails the test
/// unless it exits 0.
private func runQuietly(_ path: String, _ arguments: [String]) throws {
    let process = try ChildProcess(path, arguments)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "\(path) \(arguments)")
}

/// The lines a child writes to a pipe, read as they come, with a limit on
/// every wait so a missing line fails the test instead of hanging it.
final class LineStream: @unchecked Sendable {
    /// Held, because its file handle closes the descriptor when it goes.
    private let pipe: Pipe
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Every line read so far (raw bytes, without newlines).
    private(set) var seen: [[UInt8]] = []
    private var ended = false
    /// Lines before this one were matched or passed over by earlier waits.
    private var consumed = 0

    init(_ pipe: Pipe) {
        self.pipe = pipe
        fd = pipe.fileHandleForReading.fileDescriptor
    }

    struct Timeout: Error, CustomStringConvertible {
        let seen: [String]
        var description: String { "no such line within the limit; saw:\n" + seen.joined(separator: "\n") }
    }

    /// Reads until a line after the last one matched satisfies `predicate`
    /// (returned), or `limit` passes.
    @discardableResult
    func waitFor(within limit: Duration = .seconds(20), _ predicate: (String) -> Bool) throws -> String {
        let deadline = ContinuousClock.now + limit
        while true {
            while consumed < seen.count {
                let line = String(decoding: seen[consumed], as: UTF8.self)
                consumed += 1
                if predicate(line) { return line }
            }
            let left = deadline - .now
            guard left > .zero, !ended else { throw Timeout(seen: seen.map { String(decoding: $0, as: UTF8.self) }) }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&entry, 1, max(ms, 1)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { ended = true; continue }
            buffer += chunk[..<n]
            while let newline = buffer.firstIndex(of: 0x0A) {
                seen.append(Array(buffer[..<newline]))
                buffer.removeSubrange(...newline)
            }
        }
    }

    /// Waits for a line, off Swift's cooperative pool.
    @discardableResult
    func next(within limit: Duration = .seconds(20), _ predicate: @escaping @Sendable (String) -> Bool) async throws -> String {
        try await offPool { try self.waitFor(within: limit, predicate) }
    }
}

import Dispatch
import EstimatorKit
import Glibc
import SessionDaemon
import Synchronization
import Testing
import Threads

/// A server in a fresh temporary directory that answers every request with
/// its own serialization, so a test can see exactly what arrived, and
/// remembers who asked, so a test can send to a client on its own schedule.
final class EchoServer: Sendable {
    let directory: String
    let server: ControlServer
    private let arrivals = Arrivals()

    private final class Arrivals: Sendable {
        let clients = Mutex<[ControlServer.ClientID]>([])
        let asked = DispatchSemaphore(value: 0)
    }

    init(allowedUID: uid_t = getuid(), requestDeadline: Duration = ControlServer.defaultRequestDeadline) throws {
        directory = try TemporaryDirectory.make()
        let box = Mutex<ControlServer?>(nil)
        let arrivals = arrivals
        server = try ControlServer(path: directory + "/hci0.sock", allowedUID: allowedUID, loop: testLoop,
                                     requestDeadline: requestDeadline) { request, client in
            box.withLock { $0 }?.send(ControlReply(exitCode: 0, message: request.serialized).serialized, to: client)
            arrivals.clients.withLock { $0.append(client) }
            arrivals.asked.signal()
        }
        box.withLock { $0 = server }
        server.start()
    }

    var path: String { server.path }

    func client() throws -> ControlClient {
        try #require(ControlClient(path: path, timeout: 5))
    }

    /// Raw connection for sending bytes no well-behaved client would.
    func rawSocket() throws -> Int32 { try rawConnection(to: path) }

    /// The first client that asked, once its request has been answered.
    func firstClient() throws -> ControlServer.ClientID {
        try #require(arrivals.asked.wait(timeout: .now() + 5) == .success, "no request arrived")
        return try #require(arrivals.clients.withLock { $0.first })
    }

    deinit { stopInBackground(server, removing: directory) }
}

/// A blocking connection to `path` whose reads give up after 5 s.
func rawConnection(to path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = try UnixAddress(path: path)
    try #require(address.withSockaddr { connect(fd, $0, $1) } == 0)
    var limit = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    return fd
}

/// Stops a test's server and removes its directory, from a deinit.
func stopInBackground(_ server: ControlServer, removing directory: String) {
    Task {
        await server.stop()
        rmdir(directory)
    }
}

enum TemporaryDirectory {
    static func make() throws -> String {
        var template = Array("/tmp/estimator-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        try #require(made != nil)
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n <= 0 { return }
        offset += n
    }
}

/// Reads until `count` newlines have arrived (or end of stream); what
/// came with the last of them may follow.
func readLines(_ fd: Int32, count: Int) -> [UInt8] {
    var out: [UInt8] = []
    var newlines = 0
    var chunk = [UInt8](repeating: 0, count: 65536)
    while newlines < count {
        let n = read(fd, &chunk, chunk.count)
        guard n > 0 else { break }
        out.append(contentsOf: chunk[..<n])
        newlines += chunk[..<n].count(where: { $0 == 0x0A })
    }
    return out
}

/// Reads until end of stream (or error); the bytes received.
func readToEnd(_ fd: Int32) -> [UInt8] {
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &chunk, chunk.count)
        if n <= 0 { return out }
        out.append(contentsOf: chunk[..<n])
    }
}

@Suite(.timeLimit(.minutes(2))) struct ControlServerTests {
    /// A leaving session's socket file goes before it answers the leave,
    /// so the next command does not find it; the clients connected still
    /// get their answers.
    @Test func stoppingAcceptingRemovesTheSocketAndKeepsTheClients() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        echo.server.stopAccepting()
        #expect(access(echo.path, F_OK) != 0)
        #expect(ControlClient(path: echo.path, timeout: 5) == nil, "a new client finds no session")
        #expect(try client.call(.status).message == ControlRequest.status.serialized)
    }

    @Test func answersRequests() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        let reply = try client.call(.pick(.eight))
        #expect(reply.exitCode == 0)
        #expect(try ControlRequest(parsing: Array(reply.message.utf8)) == .pick(.eight))
        #expect(try client.call(.status).message == ControlRequest.status.serialized, "the connection stays usable")
    }

    @Test func socketIsPrivate() throws {
        let echo = try EchoServer()
        var info = stat()
        #expect(stat(echo.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func malformedRequestGetsErrorAndConnectionSurvives() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        let fd = try echo.rawSocket()
        defer { close(fd) }
        writeAll(fd, Array("{\"request\":\n{]\n\(ControlRequest.leave.serialized)\n".utf8))
        shutdown(fd, Int32(SHUT_WR))  // half-closed: the answers still come
        let lines = readLines(fd, count: 3).split(separator: 0x0A).map { try? ControlReply(parsing: $0) }
        try #require(lines.count == 3)
        #expect(lines[0]?.exitCode == 65)
        #expect(lines[1]?.exitCode == 65)
        #expect(lines[2]?.message == ControlRequest.leave.serialized)
        #expect(try client.call(.status).exitCode == 0, "others are still served")
    }

    @Test(arguments: [ControlRequest.maximumLength + 1, 1 << 20])
    func overlongLineIsAnsweredThenClosed(length: Int) throws {
        let echo = try EchoServer()
        let fd = try echo.rawSocket()
        defer { close(fd) }
        // Written from another thread: the server stops reading once the line is too long.
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length) + [0x0A]
        LoopThread.spawn("the test's writer") { writeAll(fd, bytes) }
        let lines = readToEnd(fd).split(separator: 0x0A)
        #expect(lines.count == 1)
        let reply = try ControlReply(parsing: try #require(lines.first))
        #expect(reply.exitCode == 65)
        #expect(reply.message.contains("at most 4096 bytes"))
        #expect(try echo.client().call(.status).exitCode == 0, "the session carries on")
    }

    @Test func clientThatNeverEndsItsLineDoesNotBlockOthers() throws {
        let echo = try EchoServer()
        let stuck = try echo.rawSocket()
        defer { close(stuck) }
        writeAll(stuck, Array(#"{"request":"pi"#.utf8))
        for _ in 0..<5 {
            #expect(try echo.client().call(.status).exitCode == 0)
        }
        // The stuck client can still finish its line and be answered.
        writeAll(stuck, Array(#"ck","card":"5"}"#.utf8) + [0x0A])
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = read(stuck, &chunk, chunk.count)
        #expect(n > 0)
        #expect(try ControlReply(parsing: chunk[..<max(n - 1, 0)]).message == ControlRequest.pick(.five).serialized)
    }

    /// Connections that say nothing cannot hold the session: each is told
    /// why and closed once its deadline passes, whether it sent nothing or
    /// half a line; one that asked keeps its connection.
    @Test func aClientThatSendsNoWholeLineInTimeIsToldAndClosed() throws {
        let echo = try EchoServer(requestDeadline: .milliseconds(300))
        let asked = try echo.client()
        #expect(try asked.call(.status).exitCode == 0)
        let silent = try echo.rawSocket()
        defer { close(silent) }
        let halfway = try echo.rawSocket()
        defer { close(halfway) }
        writeAll(halfway, Array(#"{"request":"st"#.utf8))
        for fd in [silent, halfway] {
            // Awaited: the server closes it (the read gives up after 5 s).
            let said = readToEnd(fd)
            let line = try #require(said.split(separator: 0x0A).first, "closed without a word")
            let reply = try ControlReply(parsing: line)
            #expect(reply.exitCode == 64)
            #expect(reply.message == "No request arrived within 300 ms: send a request line as you connect.")
        }
        // Both were closed after the deadline of the one that asked would have passed.
        #expect(try asked.call(.status).exitCode == 0, "a client that asked keeps its connection")
    }

    /// With every slot held by connections that asked nothing, the user's
    /// own command still gets one: the oldest silent client gives it up.
    @Test func everySlotHeldSilentlyStillLeavesOneForTheUser() throws {
        let echo = try EchoServer(requestDeadline: .seconds(60))
        let silent = try (0..<ControlServer.maximumClients).map { _ in try echo.rawSocket() }
        defer { for fd in silent { close(fd) } }
        #expect(try echo.client().call(.status).exitCode == 0)
        let said = readToEnd(silent[0])
        let line = try #require(said.split(separator: 0x0A).first, "the oldest silent client was closed without a word")
        #expect(try ControlReply(parsing: line).message.hasPrefix("No request arrived, and the session needed the connection"))
    }

    @Test func servesHundredClientsAtOnce() throws {
        let echo = try EchoServer()
        let clients = try (0..<100).map { _ in try echo.client() }
        for (i, client) in clients.enumerated() {
            try client.send(.join(channel: UInt8(i), name: "p\(i)"))
        }
        for (i, client) in clients.enumerated().reversed() {
            let line = try #require(try client.readLine())
            #expect(try ControlReply(parsing: line).message == ControlRequest.join(channel: UInt8(i), name: "p\(i)").serialized)
        }
    }

    /// A client with nothing queued gets its reply from the sender's own
    /// thread: it is in the client's socket when `send` returns.
    @Test func aReplyIsWrittenBeforeSendReturns() throws {
        let echo = try EchoServer()
        let fd = try echo.rawSocket()
        defer { close(fd) }
        writeAll(fd, Array((ControlRequest.status.serialized + "\n").utf8))
        let client = try echo.firstClient()
        #expect(readLines(fd, count: 1).count(where: { $0 == 0x0A }) == 1, "the echo")
        #expect(echo.server.send("now", to: client))
        var chunk = [UInt8](repeating: 0, count: 16)
        let n = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        #expect(n == 4 && Array(chunk[..<4]) == Array("now\n".utf8))
    }

    /// Lines written at once and lines queued behind a full socket reach
    /// the client whole and in order, however the two interleave.
    @Test func linesKeepTheirOrderWhenTheSocketFills() throws {
        let echo = try EchoServer()
        let fd = try echo.rawSocket()
        defer { close(fd) }
        writeAll(fd, Array((ControlRequest.status.serialized + "\n").utf8))
        let client = try echo.firstClient()
        let padding = String(repeating: "x", count: 400)
        let count = 2000
        LoopThread.spawn("the test's sender") {
            for i in 0..<count { echo.server.send("\(i) \(padding)", to: client) }
        }
        let lines = readLines(fd, count: count + 1).split(separator: 0x0A).dropFirst()  // after the echo
        #expect(lines.count == count)
        #expect(lines.enumerated().allSatisfy { i, line in String(decoding: line, as: UTF8.self) == "\(i) \(padding)" })
    }

    @Test func refusesAnotherUser() throws {
        // SO_PEERCRED reports our uid; a server that allows only some other uid must refuse us.
        let echo = try EchoServer(allowedUID: getuid() &+ 1)
        let fd = try echo.rawSocket()
        defer { close(fd) }
        writeAll(fd, Array((ControlRequest.status.serialized + "\n").utf8))
        let answer = readToEnd(fd).split(separator: 0x0A)
        #expect(answer.count == 1, "one refusal, then closed")
        #expect(try ControlReply(parsing: try #require(answer.first)) == ControlReply(exitCode: 77, message: "This session belongs to another user."))
    }

    @Test func stopBeforeStartClosesAtOnce() async throws {
        let directory = try TemporaryDirectory.make()
        let server = try ControlServer(path: directory + "/hci0.sock", loop: testLoop) { _, _ in }
        await server.stop()
        #expect(access(directory + "/hci0.sock", F_OK) != 0)
        rmdir(directory)
    }

    @Test func stopRemovesTheSocket() async throws {
        let echo = try EchoServer()
        let client = try echo.client()
        #expect(try client.call(.status).exitCode == 0, "accepted before the stop")
        await echo.server.stop()
        #expect(try client.readLine() == nil, "clients see end of stream")
        #expect(access(echo.path, F_OK) != 0)
    }
}

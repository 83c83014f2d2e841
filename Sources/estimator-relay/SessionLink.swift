import EstimatorKit
import Glibc

/// The relay's connection to its session's control socket: one `watch`
/// stream of `me` lines and air receptions in, the relay's own requests (`relayed`, `relay`) out, on the
/// same connection. Non-blocking; the loop polls `descriptor`.
final class SessionLink {
    let descriptor: Int32
    private var input: [UInt8] = []
    private var output: [UInt8] = []

    /// Connects and asks for the watch stream; nil when nobody listens.
    init?(path: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { close(fd); return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { close(fd); return nil }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        descriptor = fd
        send(ControlRequest.watchAir)
    }

    deinit { close(descriptor) }

    /// Queues a request line.
    func send(_ request: ControlRequest) {
        output.append(contentsOf: request.serialized.utf8)
        output.append(0x0A)
    }

    var wantsWrite: Bool { !output.isEmpty }

    /// Writes what the socket takes; false when the session is gone.
    func flush() -> Bool {
        while !output.isEmpty {
            let n = output.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { output.removeFirst(n); continue }
            if n < 0, errno == EINTR { continue }
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
        return true
    }

    /// Reads what is there; returns the complete lines, or nil at the end.
    func read() -> [[UInt8]]? {
        var chunk = [UInt8](repeating: 0, count: 16384)
        var ended = false
        while true {
            let n = Glibc.read(descriptor, &chunk, chunk.count)
            if n > 0 { input += chunk[..<n]; continue }
            if n < 0, errno == EINTR { continue }
            ended = n == 0 || !(errno == EAGAIN || errno == EWOULDBLOCK)
            break
        }
        var lines: [[UInt8]] = []
        while let newline = input.firstIndex(of: 0x0A) {
            lines.append(Array(input[..<newline]))
            input.removeSubrange(...newline)
        }
        return ended && lines.isEmpty ? nil : lines
    }
}

import CSpawn
import Foundation
import Synchronization

/// A program the tests run: spawned with nothing open but its three
/// standard streams, and waited for with `waitpid` on the waiting thread.
///
/// Why not Foundation's `Process`: it lists the descriptors to close in
/// the child before it spawns, so a pipe or socket pair that another test
/// opens at that moment stays open in this child. When this child lives
/// long (a broker, a `watch`), the other test waits for an end of file
/// that never comes: its own child's output, or the socket pair through
/// which `Process` learns that a child ended. And `Process.waitUntilExit`
/// spins on the calling thread. Here the child closes every descriptor
/// from 3 up as it starts, whatever the other threads opened.
public final class ChildProcess: Sendable {
    /// The child's process id.
    public let processIdentifier: pid_t
    private let status = Mutex<Int32?>(nil)

    /// Starts `path` with `arguments` in `environment` (this process's if
    /// nil), in a process group of its own, with no signal blocked or
    /// ignored (a test runner blocks some, and children inherit that).
    /// Each stream is the given pipe's child end, or `/dev/null`; the
    /// child's ends are closed here once it runs.
    public init(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                input: Pipe? = nil, output: Pipe? = nil, error: Pipe? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let ends: [(Int32, Int32?, Int32)] = [
            (0, input?.fileHandleForReading.fileDescriptor, O_RDONLY),
            (1, output?.fileHandleForWriting.fileDescriptor, O_WRONLY),
            (2, error?.fileHandleForWriting.fileDescriptor, O_WRONLY),
        ]
        for (stream, end, mode) in ends {
            if let end { posix_spawn_file_actions_adddup2(&actions, end, stream) }
            else { posix_spawn_file_actions_addopen(&actions, stream, "/dev/null", mode, 0) }
        }
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
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        try input?.fileHandleForReading.close()
        try output?.fileHandleForWriting.close()
        try error?.fileHandleForWriting.close()
        guard result == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL)])
        }
        processIdentifier = pid
    }

    /// Blocks until the child has ended, and reaps it: call it off Swift's
    /// cooperative pool (`offPool`). Calling it again returns at once.
    public func waitUntilExit() {
        status.withLock { status in
            guard status == nil else { return }
            var raw: Int32 = 0
            while waitpid(processIdentifier, &raw, 0) == -1 && errno == EINTR {}
            status = raw
        }
    }

    /// The exit status, or the number of the signal that ended it; after `waitUntilExit()`.
    public var terminationStatus: Int32 {
        let raw = status.withLock { $0 }
        guard let raw else { preconditionFailure("the child has not been waited for") }
        // The wait status's low seven bits are the signal, or 0 for an exit.
        let signal = raw & 0x7F
        return signal == 0 ? (raw >> 8) & 0xFF : signal
    }

    /// Reads the child's output and error to their ends, then waits for it:
    /// reading first, so a full pipe cannot block the child. Blocks: off the pool.
    public func finish(_ out: Pipe, _ err: Pipe) -> (stdout: String, stderr: String) {
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        waitUntilExit()
        return (String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

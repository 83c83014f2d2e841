import Glibc
import SessionDaemon
import Testing

/// `Descriptor.writeAll`, the one loop behind the log, the terminal, the
/// history file, the config and standard error.
@Suite struct DescriptorTests {
    /// More than a pipe holds: the writer blocks, and goes on as the reader
    /// takes each part.
    @Test func everyByteArrivesThroughAPipeReadAlongside() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let sent = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let reading = Task.detached { () -> [UInt8] in
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(readEnd, &chunk, chunk.count)
                guard n > 0 else { return received }
                received += chunk[..<n]
            }
        }
        try Descriptor.writeAll(writeEnd, sent)
        close(writeEnd)
        #expect(await reading.value == sent)
        close(readEnd)
    }

    /// A write that cannot go on is a failure, never a silent half line.
    @Test func aFullNonBlockingPipeIsAFailure() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        #expect(throws: SystemCallError.self) { try Descriptor.writeAll(ends[1], [UInt8](repeating: 1, count: 1 << 20)) }
    }
}

import Glibc
import SessionDaemon
import Synchronization
import Testing
import Threads

/// The session's loop: the work of a task that prefers it runs on its
/// thread, and so does the serving of a source's ready descriptors.
@Suite(.timeLimit(.minutes(1))) struct SessionLoopTests {
    /// Whether the caller runs on `loop`'s thread; nonisolated and async,
    /// so it runs wherever the task's preference puts it.
    private static func onLoop(_ loop: SessionLoop) async -> Bool { SessionLoop.current === loop }

    @Test func aTaskThatPrefersTheLoopRunsOnItsThread() async {
        #expect(await Self.onLoop(testLoop) == false, "a test runs on the pool")
        let (direct, child) = await withTaskExecutorPreference(testLoop) {
            let direct = await Self.onLoop(testLoop)
            let child = await withTaskGroup(of: Bool.self) { group in
                group.addTask { await Self.onLoop(testLoop) }
                return await group.next() ?? false
            }
            return (direct, child)
        }
        #expect(direct)
        #expect(child, "a child task inherits the preference")
        #expect(await Task(executorPreference: testLoop) { await Self.onLoop(testLoop) }.value)
    }

    @Test func aSleepOnTheLoopEndsNoEarlierThanItsDeadline() async throws {
        let deadline = ContinuousClock.now + .milliseconds(30)
        try await testLoop.sleep(until: deadline)
        #expect(ContinuousClock.now >= deadline)
    }

    @Test func aReadyDescriptorIsServedOnTheLoopUntilItsSourceIsRemoved() async throws {
        let source = try PipeSource()
        testLoop.add(source)
        source.send(7)
        let (byte7, onLoop) = try #require(await source.nextRead())
        #expect(byte7 == 7)
        #expect(onLoop, "served on the loop's thread")
        // Removed on the loop's thread, between two waits, as `remove` asks.
        await withTaskExecutorPreference(testLoop) { testLoop.remove(source) }
        source.send(8)
        // Served no more: the byte waits in the pipe for whoever reads it.
        var byte: UInt8 = 0
        #expect(read(source.readEnd, &byte, 1) == 1 && byte == 8)
    }
}

/// The session actor's executor is its loop.
@Suite(.timeLimit(.minutes(1))) struct SessionOnItsLoopTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()

    /// Runs on `session`'s executor, as its methods do.
    private static func onLoop(_ session: isolated Session) -> Bool { SessionLoop.current === testLoop }

    @Test func theSessionRunsOnItsLoop() async throws {
        #expect(await Self.onLoop(try makeSession()))
    }
}

/// A pipe whose read end a loop serves: each byte read, and whether it was
/// read on the loop's thread, goes to whoever waits.
private final class PipeSource: LoopSource {
    let readEnd: Int32
    private let writeEnd: Int32
    private let reads: AsyncStream<(UInt8, Bool)>
    private let sink: AsyncStream<(UInt8, Bool)>.Continuation

    init() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        (readEnd, writeEnd) = (ends[0], ends[1])
        (reads, sink) = AsyncStream.makeStream()
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func send(_ byte: UInt8) {
        var byte = byte
        _ = write(writeEnd, &byte, 1)
    }

    func nextRead() async -> (UInt8, Bool)? {
        var iterator = reads.makeAsyncIterator()
        return await iterator.next()
    }

    func descriptors() -> [pollfd] { [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)] }

    func serve(_ polled: [pollfd]) {
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) == 1 { sink.yield((byte, SessionLoop.current === testLoop)) }
    }
}

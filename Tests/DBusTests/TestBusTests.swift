import DBusTestSupport
import Foundation
import Testing

/// The private bus itself: tests start many at once, beside children of their own.
@Suite(.timeLimit(.minutes(2))) struct TestBusTests {
    /// A descriptor the test process has open without close-on-exec (as
    /// Foundation's `Process` leaves the socket pair it learns a child's exit
    /// from) stays out of the daemon: held there, that child's exit would
    /// never be seen while the bus lives.
    @Test func theDaemonInheritsNothingFromTheTestProcess() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let held = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[1])")
        let bus = try await TestBus.start()
        let daemonHolds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(bus.daemonID)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(bus.daemonID)/fd/\($0)")
        }
        #expect(!daemonHolds.isEmpty, "the daemon's descriptors are readable")
        #expect(!daemonHolds.contains(held), "\(held) in \(daemonHolds)")
    }
}

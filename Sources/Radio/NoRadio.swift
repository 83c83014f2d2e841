import Clocks
import EstimatorKit
import Synchronization

/// The radio of a session without Bluetooth (`--adapter none`): it hears
/// nothing and sends nothing, so the session's peers all come through its
/// relay, and its own packet goes out only through the relay.
package final class NoRadio: SessionRadio {
    package let events: AsyncStream<RadioEvent>
    private let sink: AsyncStream<RadioEvent>.Continuation
    private let clock: any SessionClock

    /// No radio; `clock` times its updates, which are sent at once.
    package init(clock: any SessionClock = SystemClock()) {
        self.clock = clock
        (events, sink) = AsyncStream.makeStream(of: RadioEvent.self)
    }

    package func start(localName: [UInt8], parts: [[UInt8]]) async throws(RadioError) {}

    package func update(localName: [UInt8], parts: [[UInt8]]) async throws(RadioError) -> RadioUpdate {
        RadioUpdate(scanStop: .zero, sent: clock.elapsed)
    }

    package func ride(parts: [[UInt8]]) {}

    package func stopScanning() async {}

    package func lookAgain() {}

    package func keepListening(for duration: Duration) {}

    package func stop() async { sink.finish() }

    /// Nothing goes deaf: the vote goes to the relay's broker sealed.
    package var changesWhileScanning: Bool { true }

    package func onReception(_ take: @escaping @Sendable (Reception) -> Void) {}
}

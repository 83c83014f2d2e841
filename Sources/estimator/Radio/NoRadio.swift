import EstimatorKit
import Synchronization

/// The radio of a session without Bluetooth (`--adapter none`): it hears
/// nothing and sends nothing, so the session's peers all come through its
/// relay, and its own packet goes out only through the relay.
final class NoRadio: SessionRadio {
    let events: AsyncStream<RadioEvent>
    private let sink: AsyncStream<RadioEvent>.Continuation
    private let clock: any SessionClock

    init(clock: any SessionClock = SystemClock()) {
        self.clock = clock
        (events, sink) = AsyncStream.makeStream(of: RadioEvent.self)
    }

    func start(localName: [UInt8]) async throws(RadioError) {}

    func update(localName: [UInt8]) async throws(RadioError) -> RadioUpdate {
        RadioUpdate(scanStop: .zero, sent: clock.elapsed)
    }

    func stopScanning() async {}

    func lookAgain() {}

    func keepListening(for duration: Duration) {}

    func stop() async { sink.finish() }

    /// Nothing goes deaf: the vote goes to the relay's broker sealed.
    var changesWhileScanning: Bool { true }

    func onReception(_ take: @escaping @Sendable (Reception) -> Void) {}
}

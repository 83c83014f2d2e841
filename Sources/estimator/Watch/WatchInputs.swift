import Dispatch
import EstimatorKit
import Glibc

/// Everything `watch` reacts to, as one stream: the session's lines (read
/// on their own thread, the socket being blocking), a periodic tick for
/// stale times and redraws, terminal resizes, and Ctrl-C.
final class WatchInputs {
    enum Input: Sendable {
        case line([UInt8])
        case tick
        case resize
        case interrupted
        case closed
    }

    let stream: AsyncStream<Input>
    private let ticker: Task<Void, Never>
    private let signals: SignalWatch
    private let resizes: SignalWatch

    init(client: ControlClient, tick: Duration) {
        let (stream, sink) = AsyncStream.makeStream(of: Input.self)
        self.stream = stream
        let reader = LineReader(client: client)
        LoopThread.spawn {
            while let line = reader.next() { sink.yield(.line(line)) }
            sink.yield(.closed)
        }
        ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: tick)
                sink.yield(.tick)
            }
        }
        signals = SignalWatch(signals: [SIGINT, SIGTERM, SIGHUP]) { sink.yield(.interrupted) }
        resizes = SignalWatch(signals: [SIGWINCH]) { sink.yield(.resize) }
    }

    deinit {
        ticker.cancel()
        signals.cancel()
        resizes.cancel()
    }
}

/// Hands a client to the reader thread: it is used there alone.
private final class LineReader: @unchecked Sendable {
    private let client: ControlClient
    init(client: ControlClient) { self.client = client }
    func next() -> [UInt8]? { (try? client.readLine()) ?? nil }
}

import Dispatch
import Glibc

/// Turns signals into a callback (a Dispatch source per signal), so a
/// session leaves properly instead of dying mid-broadcast.
final class SignalWatch {
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32], handler: @escaping @Sendable () -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() { for source in sources { source.cancel() } }
}

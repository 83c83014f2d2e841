import ArgumentParser
import EstimatorKit

/// `--stale SECONDS`: how long a peer may go unheard before it is shown
/// stale, a whole number of seconds from 1 to 3600.
struct StaleSeconds: CommandLineValue, Equatable, CustomStringConvertible {
    let seconds: Int

    static let `default` = StaleSeconds(seconds: 6)

    static func argument(_ text: String) throws(ValidationError) -> StaleSeconds {
        guard let seconds = Int(text), (1...3600).contains(seconds) else {
            throw ValidationError("give a whole number of seconds from 1 to 3600.")
        }
        return StaleSeconds(seconds: seconds)
    }

    static var completion: CompletionKind { .default }

    var description: String { String(seconds) }
}

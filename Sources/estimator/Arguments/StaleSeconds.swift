import ArgumentParser
import EstimatorKit

/// `--stale SECONDS`: how long a peer may go unheard before it is shown
/// stale, a whole number of seconds from 1 to 3600.
struct StaleSeconds: CommandLineValue, Equatable {
    let seconds: Int

    static let `default` = StaleSeconds(seconds: 6)

    static func parse(_ text: String) throws(UserError) -> StaleSeconds {
        guard let seconds = Int(text), (1...3600).contains(seconds) else {
            throw UserError(.usage, "--stale must be a whole number of seconds from 1 to 3600, not '\(TerminalText.echo(text))'.")
        }
        return StaleSeconds(seconds: seconds)
    }

    static var valueName: String { "seconds" }

    var defaultValueDescription: String { String(seconds) }
}

import ArgumentParser
import EstimatorKit

extension Countdown: CommandLineValue {
    /// `round --timer`, `reveal --in`: `90s`, `2m`, `1m30s`.
    static func argument(_ text: String) throws(ValidationError) -> Countdown {
        guard let countdown = try? Countdown(parsing: text) else { throw ValidationError(CountdownParseError.forms + ".") }
        return countdown
    }

    static var completion: CompletionKind { .list(["30s", "1m", "1m30s", "2m", "3m", "5m"]) }
}

import ArgumentParser
import EstimatorKit

extension RoundNumber: CommandLineValue {
    /// `packet encode --round`: a round as it goes on the air, 0 to 15.
    static func argument(_ text: String) throws(ValidationError) -> RoundNumber {
        guard let round = Int(text), (0...15).contains(round) else { throw ValidationError("rounds on the air are 0 to 15.") }
        return RoundNumber(wrapping: round)
    }

    static var completion: CompletionKind { .default }
}

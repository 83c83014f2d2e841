import ArgumentParser
import EstimatorKit

extension HistoryRecord.SizePoints: CommandLineValue {
    static func argument(_ text: String) throws(ValidationError) -> HistoryRecord.SizePoints {
        do { return try HistoryRecord.SizePoints(parsing: text) } catch { throw ValidationError("\(error).") }
    }

    /// Nothing to offer: the numbers are the team's.
    static var completion: CompletionKind { .default }
}

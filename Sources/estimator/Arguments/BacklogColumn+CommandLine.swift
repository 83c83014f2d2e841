import ArgumentParser
import EstimatorKit

/// `--key-column`, `--summary-column`: a column of the backlog file, by its
/// name in the header or its number from 1.
extension BacklogColumn: CommandLineValue {
    static func argument(_ text: String) throws(ValidationError) -> BacklogColumn {
        guard let column = BacklogColumn(text) else {
            throw ValidationError("give a column's name as the file's first line has it, or its number from 1.")
        }
        return column
    }

    static var completion: CompletionKind { .default }
}

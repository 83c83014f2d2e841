import ArgumentParser
import EstimatorKit
import SessionDaemon

extension ParsableCommand {
    /// Ends the process for `error`. A `UserError` prints its sentence and
    /// exits with its code; argument errors print ArgumentParser's first line
    /// and where the help is, and exit 64; help and version print as usual;
    /// any other error is unexpected, so it exits 70, not 1.
    static func exit(reporting error: any Error) -> Never {
        if let error = error as? UserError {
            StandardError.write("Error: \(error.sentence)")
            Self.exit(withError: ExitCode(error.code.rawValue))
        }
        if !(error is ExitCode), exitCode(for: error).rawValue == UserError.Code.usage.rawValue {
            let first = message(for: error).split(separator: "\n").first.map(String.init) ?? "Bad usage"
            // One line, not the usage block: its "See '... --help'" is the pointer.
            let full = fullMessage(for: error).split(separator: "\n")
            let help = full.last { $0.contains("--help") }.map { " " + $0.drop { $0 == " " } } ?? ""
            let sentence = echoingShortly(first)
            let ended = sentence.hasSuffix(".") || sentence.hasSuffix("?") || sentence.hasSuffix("!")
            StandardError.write("Error: \(ended ? sentence : sentence + ".")\(help)")
            Self.exit(withError: ExitCode(UserError.Code.usage.rawValue))
        }
        guard !(error is ExitCode), exitCode(for: error) == .failure else { Self.exit(withError: error) }
        StandardError.write("Error: \(message(for: error))")
        Self.exit(withError: ExitCode(UserError.Code.software.rawValue))
    }
}

/// ArgumentParser's `message` with every quoted part (what was typed) cut
/// like `TerminalText.echo`, so a 100 KB argument is not printed back.
private func echoingShortly(_ message: String) -> String {
    message.split(separator: "'", omittingEmptySubsequences: false).enumerated()
        .map { $0.offset.isMultiple(of: 2) ? String($0.element) : TerminalText.echo(String($0.element)) }
        .joined(separator: "'")
}

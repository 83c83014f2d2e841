import ArgumentParser
import EstimatorKit

/// A failure the person at the keyboard can act on: reported as one sentence
/// on standard error, and the process exits with a sysexits(3) code.
///
/// Commands throw it; `Estimator.main()` reports it (see `exit(reporting:)`).
struct UserError: Error, Equatable, CustomStringConvertible {
    /// The sysexits(3) codes estimator uses.
    enum Code: Int32, Sendable {
        /// EX_USAGE: the command was used wrongly (bad option value).
        case usage = 64
        /// EX_DATAERR: the input data was wrong (an undecodable packet).
        case data = 65
        /// EX_UNAVAILABLE: no session, no bluetoothd, no adapter.
        case unavailable = 69
        /// EX_SOFTWARE: a bug in estimator.
        case software = 70
        /// EX_NOPERM: not allowed (D-Bus policy, rfkill).
        case permission = 77
    }

    let code: Code
    /// One sentence: what is wrong and what to do.
    let sentence: String

    init(_ code: Code, _ sentence: String) {
        self.code = code
        self.sentence = sentence
    }

    var description: String { sentence }
}

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

/// Lines for people on standard error: sanitised, because a message may quote
/// what came from the air or from another program.
enum StandardError {
    static func write(_ line: String) {
        try? Descriptor.writeAll(2, Array((TerminalText.sanitize(line) + "\n").utf8))
    }
}

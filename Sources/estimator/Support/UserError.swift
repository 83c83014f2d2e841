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
    /// exits with its code; a usage error (ArgumentParser's, or a command's
    /// `ValidationError`) prints its message and where the command's help is,
    /// and exits 64; help, version and a command's `ExitCode` go through
    /// ArgumentParser as usual; any other error is unexpected, so it exits
    /// 70, not 1.
    static func exit(reporting error: any Error) -> Never {
        if let error = error as? UserError {
            StandardError.write("Error: \(error.sentence)")
            Self.exit(withError: ExitCode(error.code.rawValue))
        }
        let code = exitCode(for: error)
        if error is ExitCode || code == .success { Self.exit(withError: error) }
        // One line, not the usage block: the help it points at has the usage.
        let message = message(for: error).split(separator: "\n").first.map { shortened(String($0)) } ?? ""
        if code == .validationFailure {
            let ended = message.hasSuffix(".") || message.hasSuffix("?") || message.hasSuffix("!")
            let command = CommandSuggestion.commandPath(of: Array(CommandLine.arguments.dropFirst()))
            StandardError.write("Error: \(ended ? message : message + ".") See '\(command) --help' for more information.")
            Self.exit(withError: ExitCode(UserError.Code.usage.rawValue))
        }
        StandardError.write("Error: \(message)")
        Self.exit(withError: ExitCode(UserError.Code.software.rawValue))
    }
}

/// `message` with what was typed cut like `TerminalText.echo`, so a
/// 100 KB argument that a message quotes is not printed back whole: each
/// long argument, or the value of a long `--option=VALUE`, where it appears.
private func shortened(_ message: String) -> String {
    var message = message
    for argument in CommandLine.arguments.dropFirst() {
        var typed = [Substring(argument)]
        if argument.hasPrefix("-"), let equals = argument.firstIndex(of: "=") {
            typed.append(argument[argument.index(after: equals)...])
        }
        for text in typed where text.count > TerminalText.echoLimit {
            message = message.replacing(text, with: TerminalText.echo(String(text)))
        }
    }
    return message
}

/// Lines for people on standard error: sanitised, because a message may quote
/// what came from the air or from another program.
enum StandardError {
    static func write(_ line: String) {
        try? Descriptor.writeAll(2, Array((TerminalText.sanitize(line) + "\n").utf8))
    }
}

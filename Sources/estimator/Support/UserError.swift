import ArgumentParser
import EstimatorKit
import SessionDaemon

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

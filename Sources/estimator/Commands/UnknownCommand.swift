import ArgumentParser

/// What `estimator Parent` does without one of its commands: shows its help,
/// or refuses words that name none of them. `Parent`'s default subcommand,
/// hidden: ArgumentParser would only call such words unexpected.
struct UnknownCommand<Parent: ParsableCommand>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "unknown-command", abstract: "Show the command's help.", shouldDisplay: false)
    }

    /// Words before any option that name none of `Parent`'s commands.
    @Argument(help: .hidden)
    var words: [String] = []

    // In `validate()`, before ArgumentParser looks at the options.
    func validate() throws {
        guard let word = words.first else { return }
        let arguments = Array(CommandLine.arguments.dropFirst())
        throw CommandSuggestion.notACommand(word, of: Parent.self, path: CommandSuggestion.commandPath(of: arguments))
    }

    func run() throws {
        throw CleanExit.helpRequest(Parent.self)
    }
}

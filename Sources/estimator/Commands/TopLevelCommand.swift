import ArgumentParser

/// What `estimator` does without a command: shows the version, the help,
/// or refuses words that name no command. It is the root's default
/// subcommand, hidden, rather than the root itself: ArgumentParser gives the
/// root's options to every subcommand (`estimator join --version` would
/// join), and a root argument would take the subcommands' names too.
struct TopLevelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top-level",
        abstract: "Show the version or the help.",
        shouldDisplay: false)

    @Flag(help: "Show the version.")
    var version = false

    /// Words before any option that name no command.
    @Argument(help: .hidden)
    var words: [String] = []

    // In `validate()`, before ArgumentParser looks at the options, so that
    // `estimator pik --foo` is about `pik`.
    func validate() throws {
        if let word = words.first { throw CommandSuggestion.notACommand(word, of: Estimator.self, path: "estimator") }
    }

    func run() throws {
        guard version else { throw CleanExit.helpRequest(Estimator.self) }
        print(Estimator.version)
    }
}

import ArgumentParser
import EstimatorKit

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
        guard let word = words.first else { return }
        var sentence = "'\(TerminalText.echo(word))' is not an estimator command"
        if let near = CommandSuggestion.nearest(to: word, among: CommandSuggestion.visibleNames(of: Estimator.self)) {
            sentence += "; did you mean '\(near)'?"
        } else {
            sentence += "."
        }
        throw ValidationError(sentence)
    }

    func run() throws {
        guard version else { throw CleanExit.helpRequest(Estimator.self) }
        print(Estimator.version)
    }
}

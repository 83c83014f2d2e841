import ArgumentParser
import EstimatorKit

/// `estimator help [COMMAND…]`: a command's help. Declared in place of
/// ArgumentParser's own `help`, which shows the top help and exits 0 for a
/// command that does not exist, and shows hidden commands.
struct HelpTopicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "help",
        abstract: "Show a command's help.",
        shouldDisplay: false)

    @Argument(help: "The command, as typed after `estimator`.")
    var names: [String] = []

    func run() throws {
        var command: ParsableCommand.Type = Estimator.self
        var path = ["estimator"]
        for name in names {
            guard let next = command.configuration.subcommands.first(where: {
                // `help help` is about this command, hidden as it is.
                $0.configuration.commandName == name && ($0.configuration.shouldDisplay || $0 == HelpTopicCommand.self)
            }) else {
                let what = path.count == 1 ? "an estimator" : "an '\(path.joined(separator: " "))'"
                var sentence = "'\(TerminalText.echo(name))' is not \(what) command"
                if let near = CommandSuggestion.nearest(to: name, among: CommandSuggestion.visibleNames(of: command)) {
                    sentence += "; did you mean '\(near)'? See 'estimator help'."
                } else {
                    sentence += "; see 'estimator help' for the commands."
                }
                throw UserError(.usage, sentence)
            }
            command = next
            path.append(name)
        }
        throw CleanExit.helpRequest(command)
    }
}

import ArgumentParser
import EstimatorKit

/// The command a mistyped name most likely meant, and where a command's
/// help is: read from the command types' configurations.
enum CommandSuggestion {
    /// The names of `command`'s subcommands that people use: hidden ones
    /// run (join starts `estimator session`), but are never suggested.
    static func visibleNames(of command: ParsableCommand.Type) -> [String] {
        command.configuration.subcommands.filter { $0.configuration.shouldDisplay }.compactMap { $0.configuration.commandName }
    }

    /// The refusal of `word`, typed where one of `command`'s subcommands
    /// goes (`path`, as typed), with the nearest one when it looks like a typo.
    static func notACommand(_ word: String, of command: ParsableCommand.Type, path: String) -> ValidationError {
        let what = "'\(TerminalText.echo(word))' is not \(path == "estimator" ? "an estimator" : "an '\(path)'") command"
        guard let near = nearest(to: word, among: visibleNames(of: command)) else { return ValidationError(what + ".") }
        return ValidationError("\(what); did you mean '\(near)'?")
    }

    /// The command that `arguments` run, as typed: the longest run of
    /// leading words that name a subcommand, after `estimator`. For the
    /// pointer to its help after an error, which ArgumentParser keeps to its
    /// own text.
    static func commandPath(of arguments: [String]) -> String {
        var command: ParsableCommand.Type = Estimator.self
        var path = ["estimator"]
        for word in arguments {
            // A default subcommand is never typed: its words are the mistake.
            let typed = command.configuration.defaultSubcommand.map(ObjectIdentifier.init)
            guard let next = command.configuration.subcommands.first(where: {
                $0.configuration.commandName == word && ObjectIdentifier($0) != typed
            }) else { break }
            command = next
            path.append(word)
        }
        return path.joined(separator: " ")
    }

    /// The name `typed` is most likely a typo of: within two edits
    /// (a swap of neighbours counts as one), or one it starts.
    static func nearest(to typed: String, among names: [String]) -> String? {
        let lowered = typed.lowercased()
        guard !lowered.isEmpty, lowered.count <= 32 else { return nil }
        if let started = names.first(where: { $0.hasPrefix(lowered) }) { return started }
        let scored = names.map { (name: $0, distance: editDistance(lowered, $0)) }.filter { $0.distance <= 2 }
        return scored.min { $0.distance < $1.distance }?.name
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions
    /// and swaps of two neighbouring characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}

import ArgumentParser
import EstimatorKit
import Glibc

/// What is checked before ArgumentParser reads the command line, because
/// ArgumentParser cannot check it:
/// - text that is not UTF-8: ArgumentParser reads `CommandLine.arguments`,
///   where Swift has already turned such bytes into U+FFFD, unnoticed;
/// - command names: ArgumentParser says "2 unexpected arguments" for
///   `estimator pik 8` (no suggestion), shows the top help and exits 0 for
///   `estimator help nosuch`, and takes the root's `--version` after a
///   subcommand as its own, so `estimator join --version` would join.
/// Values are not checked here: their types read them (`CommandLineValue`).
enum CommandLineCheck {
    /// Refuses an argument that is not valid UTF-8: exit 64.
    static func arguments(_ argv: UnsafeBufferPointer<UnsafeMutablePointer<CChar>?>) throws(UserError) {
        for pointer in argv {
            guard let pointer, String(validatingCString: pointer) == nil else { continue }
            let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            var shown = ""
            for byte in bytes.prefix(TerminalText.echoLimit) {
                let plain = (0x21...0x7E).contains(byte) && byte != 0x5C && byte != 0x27
                shown += plain ? String(UnicodeScalar(byte)) : "\\x" + Hex.text([byte])
            }
            if bytes.count > TerminalText.echoLimit { shown += "…" }
            throw UserError(.usage, "The argument '\(shown)' is not UTF-8 text; type it in a UTF-8 terminal (check the locale).")
        }
    }

    /// Refuses a subcommand name that does not exist, with the nearest one
    /// when it looks like a typo; and `help` for a command that does not
    /// exist (or is hidden). Exit 64.
    static func commandNames(_ arguments: [String]) throws(UserError) {
        var command: ParsableCommand.Type = Estimator.self
        var path = ["estimator"]
        var rest = arguments[...]
        if rest.first == "help" {
            rest = rest.dropFirst()
            for name in rest.prefix(while: { !$0.hasPrefix("-") }) {
                guard let next = visibleSubcommand(of: command, named: name) else {
                    throw unknown(name, in: command, path: path, help: "estimator help")
                }
                command = next
                path.append(name)
            }
            return
        }
        while let name = rest.first, !name.hasPrefix("-"), !command.configuration.subcommands.isEmpty {
            // Hidden commands run (join starts `estimator session`), but are never suggested.
            guard let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == name }) else {
                throw unknown(name, in: command, path: path, help: path.joined(separator: " ") + " --help")
            }
            command = next
            path.append(name)
            rest = rest.dropFirst()
        }
        // ArgumentParser would take the root's --version after a subcommand too.
        if path.count > 1, command.configuration.shouldDisplay, rest.prefix(while: { $0 != "--" }).contains("--version") {
            throw UserError(.usage, "'\(path.joined(separator: " "))' has no --version; the version is `estimator --version`.")
        }
    }

    private static func visibleSubcommand(of command: ParsableCommand.Type, named name: String) -> ParsableCommand.Type? {
        command.configuration.subcommands.first { $0.configuration.commandName == name && $0.configuration.shouldDisplay }
    }

    private static func unknown(_ name: String, in command: ParsableCommand.Type, path: [String], help: String) -> UserError {
        var names: [String] = []
        for subcommand in command.configuration.subcommands where subcommand.configuration.shouldDisplay {
            if let name = subcommand.configuration.commandName { names.append(name) }
        }
        let what = "'\(TerminalText.echo(name))' is not \(path.count == 1 ? "an estimator" : "an '\(path.joined(separator: " "))'") command"
        if let near = nearest(to: name, among: names) {
            return UserError(.usage, "\(what); did you mean '\(near)'? See '\(help)'.")
        }
        return UserError(.usage, "\(what); see '\(help)' for the commands.")
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

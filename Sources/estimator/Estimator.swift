import ArgumentParser

/// The `estimator` command: planning poker over Bluetooth Low Energy.
@main
struct Estimator: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "estimator",
        abstract: "Planning poker for people in one room, over Bluetooth Low Energy.",
        discussion: """
            Each laptop broadcasts its owner's card; everyone sees a live table of \
            everyone's cards. No server, no pairing, no network.
            """,
        subcommands: [
            JoinCommand.self, PickCommand.self, RoundCommand.self, RevealCommand.self, SettleCommand.self, WatchCommand.self, StatusCommand.self, LeaveCommand.self, DoctorCommand.self,
            PacketCommand.self, SessionCommand.self,
            BacklogCommand.self, HistoryCommand.self,
        ])

    // The root's own flag rather than the configuration's version, which
    // ArgumentParser would list under every subcommand too.
    @Flag(help: "Show the version.")
    var version = false

    func run() throws {
        guard version else { throw CleanExit.helpRequest(self) }
        print(Self.version)
    }

    /// ArgumentParser's `main`, with errors reported as one sentence and a
    /// sysexits code (`UserError`).
    static func main() async {
        do {
            // Read in place: an array of C pointers would make the runtime build
            // its type at start-up, a quarter of `pick`'s instructions.
            try CommandLineCheck.arguments(UnsafeBufferPointer(start: CommandLine.unsafeArgv + 1, count: Int(CommandLine.argc) - 1))
        } catch {
            exit(reporting: error)
        }
        QuickCommand.runIfPossible()
        do {
            try CommandLineCheck.commandNames(Array(CommandLine.arguments.dropFirst()))
            var command = try await asyncParseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(reporting: error)
        }
    }
}

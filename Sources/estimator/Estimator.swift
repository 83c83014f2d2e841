import ArgumentParser

/// The `estimator` command: planning poker over Bluetooth Low Energy.
@main
struct Estimator: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "estimator",
        abstract: "Planning poker for people in one room, over Bluetooth Low Energy.",
        discussion: """
            Each laptop broadcasts its owner's card; everyone sees a live table of \
            everyone's cards. No server, no pairing, no network.
            """,
        version: "0.1.0",
        subcommands: [
            JoinCommand.self, PickCommand.self, RoundCommand.self, WatchCommand.self, StatusCommand.self, LeaveCommand.self, DoctorCommand.self,
            PacketCommand.self, SessionCommand.self,
            HistoryCommand.self,
        ])

    /// ArgumentParser's `main`, with errors reported as one sentence and a
    /// sysexits code (`UserError`).
    static func main() async {
        QuickCommand.runIfPossible()
        do {
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

import ArgumentParser
import Glibc

/// The process's entry point: the command runs as `Estimator.main()` on the
/// global executor while the main thread waits for the process's signals.
///
/// Not an async `@main`: it leaves the main thread through `dispatch_main`,
/// whose `pthread_exit` unwinds it. In a static executable the unwinder's
/// first lookup sorts every frame description of the binary, and `exit`
/// waits for that sort to end, so every command would pay it.
@main
enum EstimatorMain {
    static func main() {
        Task.detached {
            await Estimator.main()
            exit(0)
        }
        // The thread that takes the process's signals, as `dispatch_main`
        // leaves it: every other thread blocks them (Dispatch's workers, and
        // the threads they start), and so may this one, inherited from the
        // thread that spawned the process. `SignalWatch`'s handlers run here.
        var none = sigset_t()
        sigemptyset(&none)
        while true { sigsuspend(&none) }
    }
}

/// The `estimator` command: planning poker over Bluetooth Low Energy.
struct Estimator: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "estimator",
        abstract: "Planning poker for people in one room, over Bluetooth Low Energy.",
        usage: """
            estimator <subcommand>
            estimator --version
            """,
        discussion: """
            Each laptop broadcasts its owner's card; everyone sees a live table of \
            everyone's cards. No server, no pairing, no network.
            """,
        subcommands: [
            JoinCommand.self, PickCommand.self, RoundCommand.self, RevealCommand.self, SettleCommand.self, WatchCommand.self, StatusCommand.self, LeaveCommand.self, DoctorCommand.self, ConfigCommand.self,
            PacketCommand.self, SessionCommand.self,
            BacklogCommand.self, HistoryCommand.self,
            HelpTopicCommand.self, TopLevelCommand.self,
        ],
        defaultSubcommand: TopLevelCommand.self)

    /// ArgumentParser's `main`, with errors reported as one sentence and a
    /// sysexits code (`UserError`).
    static func main() async {
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

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
        subcommands: [])
}

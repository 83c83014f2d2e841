import ArgumentParser

/// `--stale SECONDS`, shared by `join`, `watch` and the `session` that `join`
/// starts: how long a peer may go unheard before it is shown stale.
struct StaleOption: ParsableArguments {
    // Read unconditionally, so `--stale -5` gets StaleSeconds' reason
    // rather than ArgumentParser's "missing value".
    @Option(name: .customLong("stale"), parsing: .unconditional,
            help: ArgumentHelp("Seconds without hearing a peer before it is shown stale, 1 to 3600.", valueName: "seconds"))
    var value: StaleSeconds = .default
}

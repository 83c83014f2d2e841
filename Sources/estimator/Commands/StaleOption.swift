import ArgumentParser

/// `--stale SECONDS`, shared by `join` and `watch`: how long a peer may go
/// unheard before it is shown stale.
struct StaleOption: ParsableArguments {
    // Text, read unconditionally, so `--stale -5` and `--stale abc` get this
    // option's own sentence rather than ArgumentParser's "missing value".
    @Option(name: .customLong("stale"), parsing: .unconditional,
            help: ArgumentHelp("Seconds without hearing a peer before it is shown stale (default: 6).", valueName: "seconds"))
    var text: String?

    /// The value, checked: one sentence and exit 64 when it is not a whole
    /// number of seconds from 1 to 3600.
    func checked() throws(UserError) -> Int {
        guard let text else { return 6 }
        guard let seconds = Int(text), (1...3600).contains(seconds) else {
            throw UserError(.usage, "--stale must be a whole number of seconds from 1 to 3600, not '\(text)'.")
        }
        return seconds
    }
}

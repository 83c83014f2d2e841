import ArgumentParser

/// `--stale SECONDS`, shared by `join` and `watch`: how long a peer may go
/// unheard before it is shown stale.
struct StaleOption: ParsableArguments {
    @Option(name: .customLong("stale"), help: "Seconds without hearing a peer before it is shown stale.")
    var seconds: Int = 6

    /// The value, checked: one sentence and exit 64 when out of range.
    func checked() throws(UserError) -> Int {
        guard (1...3600).contains(seconds) else { throw UserError(.usage, "--stale must be from 1 to 3600 seconds.") }
        return seconds
    }
}

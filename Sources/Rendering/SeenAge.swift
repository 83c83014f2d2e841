/// How long ago a peer was heard, short: `now`, `0.4s`, `12s`, `3m`.
package enum SeenAge {
    package static func text(_ age: Duration) -> String {
        // Under a tenth of a second (or a clock that went backwards) is now.
        if age < .milliseconds(100) { return "now" }
        let (seconds, attoseconds) = age.components
        if seconds >= 60 { return "\(seconds / 60)m" }
        if seconds >= 10 { return "\(seconds)s" }
        return "\(seconds).\(attoseconds / 100_000_000_000_000_000)s"
    }
}

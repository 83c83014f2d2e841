/// How long a round's timer runs before the round is revealed for the room
/// (`round --timer`, `reveal --in`): whole seconds, from one second to an
/// hour, typed as `90s`, `2m` or `1m30s`. While it runs, tables show what is
/// left as a clock (`1:23`).
public struct Countdown: Hashable, Sendable, CustomStringConvertible {
    /// The length in seconds, 1 to `longest`.
    public let seconds: Int

    /// The longest timer: an hour is longer than any one story's discussion.
    public static let longest = 3600

    /// A countdown of `seconds`, 1 to `longest`.
    public init?(seconds: Int) {
        guard (1...Self.longest).contains(seconds) else { return nil }
        self.seconds = seconds
    }

    /// Parses what a person types: minutes and/or seconds, each a whole
    /// number followed by its unit (`90s`, `2m`, `1m30s`; case-insensitive,
    /// surrounding spaces ignored). A bare number is refused: 2 could be
    /// seconds or minutes.
    public init(parsing text: String) throws(CountdownParseError) {
        let typed = text.trimmingWhitespace().lowercased()
        var total = 0
        var digits = ""
        var units: [Character] = []
        for character in typed {
            if ("0"..."9").contains(character) {
                digits.append(character)
                continue
            }
            // Minutes before seconds, each once, each after its number.
            guard character == "m" || character == "s", !digits.isEmpty, digits.count <= 4, !units.contains(character),
                  units.isEmpty || (units == ["m"] && character == "s"), let value = Int(digits)
            else { throw CountdownParseError(input: text) }
            total += character == "m" ? value * 60 : value
            units.append(character)
            digits = ""
        }
        guard digits.isEmpty, !units.isEmpty else { throw CountdownParseError(input: text) }
        guard let countdown = Countdown(seconds: total) else { throw CountdownParseError(input: text) }
        self = countdown
    }

    /// The length as a duration.
    public var duration: Duration { .seconds(seconds) }

    /// As it is typed: `90s` is `1m30s`, `120s` is `2m`.
    public var description: String {
        let (minutes, rest) = seconds.quotientAndRemainder(dividingBy: 60)
        if minutes == 0 { return "\(rest)s" }
        return rest == 0 ? "\(minutes)m" : "\(minutes)m\(rest)s"
    }

    /// What is left of a running timer as a clock, in whole seconds rounded
    /// up, so it shows `2:00` as it starts and `0:01` in its last second;
    /// `0:00` once it has run out.
    public static func clock(_ remaining: Duration) -> String {
        let (seconds, attoseconds) = remaining.components
        let whole = max(0, seconds + (attoseconds > 0 ? 1 : 0))
        let (minutes, rest) = whole.quotientAndRemainder(dividingBy: 60)
        return "\(minutes):\(rest < 10 ? "0" : "")\(rest)"
    }
}

/// What a person typed is not a timer's length.
public struct CountdownParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let input: String

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(input: String) {
        self.input = input
    }

    public var description: String {
        "'\(TerminalText.echo(input))' is not a timer; \(Self.forms)."
    }

    /// What a timer may be, for help and error text.
    public static let forms = "a timer is minutes and/or seconds such as 90s, 2m or 1m30s, from 1s to \(Countdown.longest / 60)m"
}

import ArgumentParser
import SessionDaemon

/// `--relay`, `--relay-user`, `--relay-password-file` and `--relay-ca`:
/// declared once for `join` and for the `session` it starts, and written
/// back for that session by `arguments(_:)`.
struct RelayOptionGroup: ParsableArguments {
    @Option(help: "An MQTT broker and room for remote teammates, mqtts://HOST[:PORT]/ROOM (mqtt:// for plain TCP); remembered; none drops it.")
    var relay: TypedText?

    @Option(help: "The user name on the relay's broker (remembered).")
    var relayUser: TypedText?

    @Option(help: "A file holding the relay password, readable by you alone (remembered; the password never is).")
    var relayPasswordFile: TypedText?

    @Option(name: .customLong("relay-ca"), help: "A CA certificate file to verify the broker with, instead of the system's CAs (remembered).")
    var relayCA: TypedText?

    /// What was typed.
    var typed: RelayOptions {
        RelayOptions(url: relay?.text, user: relayUser?.text, passwordFile: relayPasswordFile?.text, caFile: relayCA?.text)
    }

    /// These options as they give `settings` (checked, files absolute).
    static func arguments(_ settings: RelaySettings) -> [String] {
        var arguments = ["--relay", settings.url]
        if let user = settings.user { arguments += ["--relay-user", user] }
        if let file = settings.passwordFile { arguments += ["--relay-password-file", file] }
        if let file = settings.caFile { arguments += ["--relay-ca", file] }
        return arguments
    }
}

import EstimatorKit
import Glibc

/// The relay a session starts beside itself (docs/ARCHITECTURE.md, Relay):
/// the broker's URL and how to log in. The password itself is never here:
/// the relay reads `ESTIMATOR_RELAY_PASSWORD` or `passwordFile`.
package struct RelaySettings: Equatable, Sendable {
    /// `mqtts://host[:port]/ROOM`, or `mqtt://…` when asked for; the relay
    /// checks it in full and refuses it with one sentence (exit 64).
    package var url: String
    package var user: String?
    /// An absolute path to a file holding the password (mode 0600).
    package var passwordFile: String?
    /// An absolute path to a CA certificate file to verify the broker with.
    package var caFile: String?

    /// What `--relay` takes to drop the remembered relay.
    static let noneWord = "none"

    /// Checks what was typed: a URL of the right scheme, files given as
    /// absolute paths (the session does not run in the caller's directory).
    init(url: String, user: String?, passwordFile: String?, caFile: String?) throws(UserError) {
        guard url.hasPrefix("mqtts://") || url.hasPrefix("mqtt://"), url.utf8.count <= 300,
              url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
        else {
            throw UserError(.usage, "A relay URL starts with mqtts:// (TLS) or mqtt:// (plain), as in mqtts://broker.example:8883/team-room.")
        }
        if let user, user.isEmpty || user.utf8.count > 256 || user.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            throw UserError(.usage, "The relay user name must be 1 to 256 bytes without control characters.")
        }
        self.url = url
        self.user = user
        self.passwordFile = try passwordFile.map(Self.absolute)
        self.caFile = try caFile.map(Self.absolute)
    }

    /// Whether the connection is plain TCP, unencrypted.
    var isPlain: Bool { url.hasPrefix("mqtt://") }

    /// The relay's command line, after the program name.
    func arguments(socket: String, channel: Channel, staleSeconds: Int64, readyFD: Int32) -> [String] {
        var arguments = ["--socket", socket, "--url", url, "--channel", String(channel.rawValue),
                         "--stale", String(staleSeconds), "--ready-fd", String(readyFD)]
        if let user { arguments += ["--user", user] }
        if let passwordFile { arguments += ["--password-file", passwordFile] }
        if let caFile { arguments += ["--ca", caFile] }
        return arguments
    }

    private static func absolute(_ path: String) throws(UserError) -> String {
        guard !path.isEmpty, !path.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw UserError(.usage, "A relay file must be named by a path without control characters.")
        }
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard getcwd(&buffer, buffer.count) != nil else {
            throw UserError(.usage, "Give the relay file \(TerminalText.sanitize(path)) as an absolute path.")
        }
        let directory = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: directory, as: UTF8.self) + "/" + path
    }
}

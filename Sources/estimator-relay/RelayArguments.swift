import ArgumentParser
import EstimatorKit
import Glibc
import Relay

/// The relay's command line, as the session starts it
/// (`RelaySettings.arguments`). The password is never on it: it comes from
/// `ESTIMATOR_RELAY_PASSWORD` or a file only its owner can read.
struct RelayArguments: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "estimator-relay",
        abstract: "Carry a session's packets to and from an MQTT broker.",
        discussion: """
            An estimator session with a relay (`estimator join --relay URL`) starts \
            this beside itself; it is not meant to be run by hand. It publishes the \
            session's packet and the packets the session hears over the air, and \
            hands the session every packet the broker has for the room, over the \
            session's control socket.

            The password comes from ESTIMATOR_RELAY_PASSWORD, else from \
            --password-file, which must be yours and mode 0600.

            Its first word goes to --ready-fd as one JSON line: connected, not \
            reachable yet (it keeps trying), or refused (exit 77).
            """)

    @Option(help: ArgumentHelp("The session's control socket.", valueName: "path"))
    var socket: String

    // Read by `address()` once the arguments are known, so that a URL the
    // relay refuses is reported on --ready-fd too.
    @Option(help: ArgumentHelp("The broker and room: mqtts://HOST[:PORT]/ROOM, or mqtt:// for plain TCP.", valueName: "url"))
    var url: String

    @Option(help: "The session's channel, 0 to 255.", transform: { text in
        guard let channel = UInt8(text) else { throw ValidationError("a channel is a whole number from 0 to 255.") }
        return Channel(rawValue: channel)
    })
    var channel: Channel

    @Option(help: ArgumentHelp("The user name on the broker.", valueName: "name"))
    var user: String?

    @Option(help: ArgumentHelp("A file holding the password, mode 0600.", valueName: "file"))
    var passwordFile: String?

    @Option(name: .customLong("ca"), help: ArgumentHelp("A CA certificate file to verify the broker with, instead of the system's CAs.", valueName: "file"))
    var caFile: String?

    @Option(help: ArgumentHelp("The descriptor to write the first word to.", valueName: "fd"))
    var readyFD: Int32?

    @Option(name: .customLong("stale"), help: ArgumentHelp("Seconds without hearing a peer before it is no longer forwarded.", valueName: "seconds"),
            transform: { text in
        guard let seconds = Int(text), seconds > 0 else { throw ValidationError("give a whole number of seconds, 1 or more.") }
        return seconds
    })
    var staleSeconds = 6

    /// The broker's address, or why the URL is refused (exit 64).
    func address() throws(RelayFailure) -> BrokerAddress {
        do { return try BrokerAddress(parsing: url) } catch { throw RelayFailure(64, error.description) }
    }

    /// The password: the environment first, else the file, which must be
    /// the user's own and unreadable by anyone else (mode 0600 or stricter).
    func password() throws(RelayFailure) -> String? {
        if let value = getenv("ESTIMATOR_RELAY_PASSWORD"), value.pointee != 0 { return String(cString: value) }
        guard let passwordFile else { return nil }
        // O_NONBLOCK: opening a FIFO returns at once instead of waiting for
        // a writer, and fstat then refuses it, as the session's WholeFile
        // refuses any file that is not regular (the relay does not link it).
        let fd = open(passwordFile, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            throw RelayFailure(77, "Cannot read the relay password file \(passwordFile) (\(String(cString: strerror(errno)))).")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw RelayFailure(66, "The relay password file \(passwordFile) is not a regular file; give --relay-password-file a file of mode 0600.")
        }
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw RelayFailure(77, "The relay password file \(passwordFile) must be yours and mode 0600; run chmod 600 on it.")
        }
        var bytes = [UInt8](repeating: 0, count: 1024)
        let n = read(fd, &bytes, bytes.count)
        guard n >= 0 else { throw RelayFailure(77, "Cannot read the relay password file \(passwordFile).") }
        var text = Array(bytes[..<n])
        while let last = text.last, last == 0x0A || last == 0x0D { text.removeLast() }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Why the relay stops: one sentence and a sysexits code.
struct RelayFailure: Error {
    let code: Int32
    let sentence: String
    init(_ code: Int32, _ sentence: String) {
        self.code = code
        self.sentence = sentence
    }
}

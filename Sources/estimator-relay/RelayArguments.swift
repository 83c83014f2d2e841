import EstimatorKit
import Glibc
import Relay

/// What the session passes the relay on its command line. The password is
/// never on it: it comes from `ESTIMATOR_RELAY_PASSWORD` or a file only its
/// owner can read.
struct RelayArguments {
    var socket: String
    var address: BrokerAddress
    var channel: Channel
    var user: String?
    var passwordFile: String?
    var caFile: String?
    var readyFD: Int32?
    var staleSeconds = 6

    static let usage = "usage: estimator-relay --socket PATH --url URL --channel N [--user NAME] [--password-file FILE] [--ca FILE] [--ready-fd N] [--stale S]"

    init(_ arguments: [String]) throws(RelayFailure) {
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let key = arguments[index]
            guard key.hasPrefix("--"), index + 1 < arguments.count else { throw RelayFailure(64, Self.usage) }
            values[String(key.dropFirst(2))] = arguments[index + 1]
            index += 2
        }
        guard let socket = values.removeValue(forKey: "socket"), let url = values.removeValue(forKey: "url"),
              let channelText = values.removeValue(forKey: "channel"), let channel = UInt8(channelText)
        else { throw RelayFailure(64, Self.usage) }
        self.socket = socket
        do { address = try BrokerAddress(parsing: url) } catch { throw RelayFailure(64, error.description) }
        self.channel = Channel(rawValue: channel)
        user = values.removeValue(forKey: "user")
        passwordFile = values.removeValue(forKey: "password-file")
        caFile = values.removeValue(forKey: "ca")
        readyFD = values.removeValue(forKey: "ready-fd").flatMap(Int32.init)
        if let stale = values.removeValue(forKey: "stale") {
            guard let seconds = Int(stale), seconds > 0 else { throw RelayFailure(64, Self.usage) }
            staleSeconds = seconds
        }
        guard values.isEmpty else { throw RelayFailure(64, Self.usage) }
    }

    /// The password: the environment first, else the file, which must be
    /// the user's own and unreadable by anyone else (mode 0600 or stricter).
    func password() throws(RelayFailure) -> String? {
        if let value = getenv("ESTIMATOR_RELAY_PASSWORD"), value.pointee != 0 { return String(cString: value) }
        guard let passwordFile else { return nil }
        let fd = open(passwordFile, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            throw RelayFailure(77, "Cannot read the relay password file \(passwordFile) (\(String(cString: strerror(errno)))).")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
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

import EstimatorKit
import Glibc

/// Where sessions keep their control sockets and locks: one socket and one
/// lock file per adapter in `$XDG_RUNTIME_DIR/estimator/`, or in a private
/// `/tmp/estimator-<uid>/` when there is no runtime directory.
package struct RuntimeDirectory {
    let path: String

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(path: String) {
        self.path = path
    }

    /// The directory for this user, from the environment; nothing is created.
    package static func current() -> RuntimeDirectory {
        if let runtime = Environment.value("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") {
            return RuntimeDirectory(path: runtime + "/estimator")
        }
        return RuntimeDirectory(path: "/tmp/estimator-\(getuid())")
    }

    package func socketPath(adapter: String) -> String { "\(path)/\(adapter).sock" }
    func lockPath(adapter: String) -> String { "\(path)/\(adapter).lock" }

    /// Creates the directory (0700) if needed and checks that it is ours and
    /// private: under /tmp another user could have made it first.
    func prepare() throws(UserError) {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw UserError(.permission, "Cannot create \(path) (\(SystemCallError("mkdir").description)); check that its parent is writable.")
        }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw UserError(.permission, "\(path) is not a directory; remove it and try again.")
        }
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw UserError(.permission, "\(path) belongs to someone else or is open to others; remove it and try again.")
        }
    }

    /// Adapters whose socket file exists, sorted (`hci0`, `hci1`, …). A file
    /// can be stale: callers connect to learn whether a session answers.
    package func adaptersWithSockets() -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var adapters: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasSuffix(".sock") {
                let adapter = String(name.dropLast(5))
                if AdapterName.isValid(adapter) { adapters.append(adapter) }
            }
        }
        return adapters.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
    }
}

/// Adapter names as BlueZ and the kernel spell them: `hci` and a number;
/// and controller addresses, which `--adapter` takes too.
package enum AdapterName {
    /// The adapter of a session without Bluetooth, heard only through its relay.
    package static let none = "none"

    /// Whether `name` is an adapter name (`hci` and digits) or `none`.
    package static func isValid(_ name: String) -> Bool {
        if name == none { return true }
        let bytes = Array(name.utf8)
        return bytes.count > 3 && bytes.count <= 8 && name.hasPrefix("hci")
            && bytes.dropFirst(3).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// `AA:BB:CC:DD:EE:FF`: six pairs of hex digits (either case), colons between.
    package static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.utf8.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }

    /// What `--adapter` takes.
    package static let rule = "an adapter is a name, like hci0, or an address, like 00:1A:7D:DA:71:13 (or none, for a session with a relay and no Bluetooth)"

    /// The usage error for `name`, which is no adapter.
    package static func invalid(_ name: String) -> UserError {
        UserError(.usage, "'\(TerminalText.echo(name))' is not an adapter; \(rule).")
    }
}

/// The process environment, read without Foundation.
package enum Environment {
    /// The variable `name`, or nil when unset.
    package static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let text = String(cString: raw)
        return text.isEmpty ? nil : text
    }
}

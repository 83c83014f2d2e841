import DBusTestSupport
import Foundation

/// XDG directories of one's own under a temporary root, so several
/// `estimator` sessions run side by side without touching the machine's.
enum XDGHome {
    /// Makes a temporary root with `run`, `config` and `state` in it; returns its path.
    static func make() throws -> String {
        let root = try TemporaryDirectory.make()
        for sub in ["run", "config", "state"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(sub)", withIntermediateDirectories: true)
        }
        return root
    }

    /// This process's environment with the XDG directories under `root`, and
    /// a UTF-8 locale (doctor's marks: ✔ and ✘).
    static func environment(root: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = "\(root)/run"
        environment["XDG_CONFIG_HOME"] = "\(root)/config"
        environment["XDG_STATE_HOME"] = "\(root)/state"
        environment["LC_ALL"] = "C.UTF-8"
        return environment
    }
}

import EstimatorKit
import Glibc

/// Where estimator keeps its files, and creating those directories.
package enum Directories {
    /// `$XDG_STATE_HOME/estimator`, else `~/.local/state/estimator`: session
    /// logs and the history.
    static var state: String { base("XDG_STATE_HOME", else: ".local/state") + "/estimator" }

    /// The XDG base directory `variable` names, if it is an absolute path
    /// (the specification says to ignore a relative one), else `fallback`
    /// under the home directory.
    private static func base(_ variable: String, else fallback: String) -> String {
        Environment.value(variable).flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (Environment.value("HOME") ?? Account.current.home) + "/" + fallback
    }

    /// `mkdir -p` with `mode` for the directories it creates.
    package static func create(_ path: String, mode: mode_t) throws(UserError) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, mode) != 0, errno != EEXIST {
                throw UserError(.permission, "Cannot create \(prefix) (\(SystemCallError("mkdir"))); check its parent's permissions.")
            }
        }
    }
}

import Glibc

/// Creating the directories estimator keeps files in (config, state logs).
enum Directories {
    /// `mkdir -p` with `mode` for the directories it creates.
    static func create(_ path: String, mode: mode_t) throws(UserError) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, mode) != 0, errno != EEXIST {
                throw UserError(.permission, "Cannot create \(prefix) (\(SystemCallError("mkdir"))); check its parent's permissions.")
            }
        }
    }
}

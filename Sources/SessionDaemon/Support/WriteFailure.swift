import EstimatorKit
import Glibc

extension UserError {
    /// A file that cannot be written: EX_CANTCREAT when permissions forbid
    /// it, else EX_IOERR (a full disk, a read-only file system, a file size
    /// limit); one sentence naming `path`, what the system said and the fix.
    static func cannotWrite(_ path: String, _ error: SystemCallError) -> UserError {
        let fix = switch error.code {
        case EACCES, EPERM: "check the permissions of its directory"
        case ENOSPC, EDQUOT: "free some space on its disk"
        case EROFS: "make its file system writable"
        case EFBIG: "raise the file size limit (`ulimit -f`)"
        default: "check the disk it is on"
        }
        let code: Code = error.code == EACCES || error.code == EPERM ? .cannotCreate : .ioError
        return UserError(code, "Cannot write \(path) (\(error)); \(fix).")
    }
}

/// A failure the person at the keyboard can act on: reported as one sentence
/// on standard error, and the process exits with a sysexits(3) code.
///
/// Commands throw it; `Estimator.main()` reports it (see `exit(reporting:)`).
package struct UserError: Error, Equatable, CustomStringConvertible {
    /// The sysexits(3) codes estimator uses.
    package enum Code: Int32, Sendable {
        /// EX_USAGE: the command was used wrongly (bad option value).
        case usage = 64
        /// EX_DATAERR: the input data was wrong (an undecodable packet).
        case data = 65
        /// EX_NOINPUT: an input file that cannot be read as one (a FIFO, a
        /// device or a directory where a file of estimator's belongs).
        case noInput = 66
        /// EX_UNAVAILABLE: no session, no bluetoothd, no adapter.
        case unavailable = 69
        /// EX_SOFTWARE: a bug in estimator.
        case software = 70
        /// EX_CANTCREAT: a file cannot be created or written for want of permission.
        case cannotCreate = 73
        /// EX_IOERR: a file cannot be written (the disk is full or read-only).
        case ioError = 74
        /// EX_TEMPFAIL: not now; the same command works once what it waits for is over.
        case temporary = 75
        /// EX_NOPERM: not allowed (D-Bus policy, rfkill).
        case permission = 77
    }

    package let code: Code
    /// One sentence: what is wrong and what to do.
    package let sentence: String

    /// The error with `code` and its one `sentence`.
    package init(_ code: Code, _ sentence: String) {
        self.code = code
        self.sentence = sentence
    }

    package var description: String { sentence }
}

/// A control reply's exit code is a `UserError.Code` (or 0): the session
/// answers with one, and `join`, `pick` and the others exit with it.
extension ControlReply {
    /// The reply that refuses a request with `error`'s code and sentence.
    package init(_ error: UserError) {
        self.init(exitCode: error.code.rawValue, message: error.sentence)
    }

    /// The refusal this reply carries, or nil when it is an answer; a code
    /// outside sysexits is a bug (EX_SOFTWARE).
    package var failure: UserError? {
        guard exitCode != 0 else { return nil }
        return UserError(UserError.Code(rawValue: exitCode) ?? .software, message)
    }
}

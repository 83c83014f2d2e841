import EstimatorKit

extension ControlReply {
    /// This answer for a change the history could not save: what the
    /// request did stands in the room, and the command fails with the
    /// save's code and sentence, saying what becomes of the change: the
    /// session saves it once it can, or (`lost`, it has ended) it is lost.
    func notSaved(_ failure: UserError, lost: Bool = false) -> ControlReply {
        guard exitCode == 0 else { return self }  // a refusal changed nothing
        let reason = failure.sentence.prefix(1).lowercased() + failure.sentence.dropFirst().dropLast(failure.sentence.hasSuffix(".") ? 1 : 0)
        let then = lost ? "what it held is lost" : "the session saves it once it can"
        return ControlReply(exitCode: failure.code.rawValue,
                            message: "\(message), but the history does not have it: \(reason), and \(then).", status: status)
    }
}

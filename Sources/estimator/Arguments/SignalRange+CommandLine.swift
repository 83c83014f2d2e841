import ArgumentParser
import EstimatorKit

extension SignalRange: CommandLineValue {
    static func argument(_ text: String) throws(ValidationError) -> SignalRange {
        guard let range = SignalRange(rawValue: text) else { throw ValidationError(forms) }
        return range
    }

    static var completion: CompletionKind { .list(allCases.map(\.rawValue)) }

    /// What each range reaches, in metres (docs/PROTOCOL.md, The signal floor).
    private static let reaches = "near (a desk, about 5 m), room (a meeting room, up to about 15 m) "
        + "or hall (an open floor, 20 m and more)"

    /// For a value that is none of them.
    static let forms = "a range is \(reaches)."

    /// The option's help: who is counted in the room, and who is not.
    static let help = "How far the room reaches: \(reaches); people heard beyond it are nearby, out of the room"
}

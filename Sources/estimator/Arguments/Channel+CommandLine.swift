import ArgumentParser
import EstimatorKit

extension Channel: CommandLineValue {
    static func argument(_ text: String) throws(ValidationError) -> Channel {
        guard let channel = try? Channel(parsing: text) else {
            throw ValidationError("a channel is a whole number from 0 to 255.")
        }
        return channel
    }

    /// Every channel; a shell offers them after `--channel`.
    static var completion: CompletionKind { .list((0...255).map(String.init)) }
}

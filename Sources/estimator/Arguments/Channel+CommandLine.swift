import ArgumentParser
import EstimatorKit

extension Channel: ExpressibleByArgument, CommandLineValue {
    public init?(argument: String) {
        guard let channel = try? Self.parse(argument) else { return nil }
        self = channel
    }

    static func parse(_ text: String) throws(UserError) -> Channel {
        do { return try Channel(parsing: text) } catch { throw UserError(.usage, error.description) }
    }

    static var valueName: String { "channel" }

    public var defaultValueDescription: String { description }

    /// Every channel; a shell offers them after `--channel`.
    public static var defaultCompletionKind: CompletionKind { .list((0...255).map(String.init)) }
}

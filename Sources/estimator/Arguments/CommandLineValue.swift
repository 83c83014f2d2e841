import ArgumentParser

/// A value type the commands read from the command line (a channel, a card,
/// seconds, an adapter): every option or argument of the type reads it the
/// same way, through ArgumentParser's `transform:`. A value that breaks the
/// rules gets ArgumentParser's line, which names the option and what was
/// typed, ended by the type's reason: "The value '256' is invalid for
/// '--channel <channel>': a channel is a whole number from 0 to 255."
protocol CommandLineValue: Sendable {
    /// The value `text` stands for; else the reason, for ArgumentParser's line.
    static func argument(_ text: String) throws(ValidationError) -> Self
    /// What a shell offers for the value.
    static var completion: CompletionKind { get }
}

extension CommandLineValue {
    /// The value `text` stands for, once it is known to be text: bytes that
    /// are not UTF-8 reach `CommandLine.arguments` as U+FFFD, so a value
    /// holding it is refused rather than taken for what was typed.
    static func read(_ text: String) throws(ValidationError) -> Self {
        guard !text.unicodeScalars.contains("\u{FFFD}") else {
            throw ValidationError("it is not UTF-8 text; type it in a UTF-8 terminal (check the locale).")
        }
        return try argument(text)
    }
}

extension Option where Value: CommandLineValue {
    /// A required option of a `CommandLineValue` type.
    init(name: NameSpecification = .long, parsing: SingleValueParsingStrategy = .next, help: ArgumentHelp? = nil) {
        self.init(name: name, parsing: parsing, help: help, completion: Value.completion, transform: { try Value.read($0) })
    }

    /// An option of a `CommandLineValue` type with a default. Its help ends
    /// with the default as ArgumentParser writes it for other types: with
    /// `transform:` it does not know the default's text.
    init(wrappedValue: Value, name: NameSpecification = .long, parsing: SingleValueParsingStrategy = .next,
         help: ArgumentHelp) where Value: CustomStringConvertible {
        var help = help
        help.abstract += " (default: \(wrappedValue))"
        self.init(wrappedValue: wrappedValue, name: name, parsing: parsing, help: help, completion: Value.completion,
                  transform: { try Value.read($0) })
    }
}

extension Option {
    /// An optional option of a `CommandLineValue` type.
    init<T: CommandLineValue>(name: NameSpecification = .long, parsing: SingleValueParsingStrategy = .next,
                              help: ArgumentHelp? = nil) where Value == T? {
        self.init(name: name, parsing: parsing, help: help, completion: T.completion, transform: { try T.read($0) })
    }
}

extension Argument where Value: CommandLineValue {
    /// A required argument of a `CommandLineValue` type.
    init(help: ArgumentHelp? = nil) {
        self.init(help: help, completion: Value.completion, transform: { try Value.read($0) })
    }
}

extension Argument {
    /// An optional argument of a `CommandLineValue` type.
    init<T: CommandLineValue>(help: ArgumentHelp? = nil) where Value == T? {
        self.init(help: help, completion: T.completion, transform: { try T.read($0) })
    }
}

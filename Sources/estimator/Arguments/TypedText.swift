import ArgumentParser

/// Free text typed on the command line (a name, a title), as typed: the
/// rules for it are the command's. Only text that is not UTF-8 is refused
/// here, as every `CommandLineValue` refuses it (`read(_:)`).
struct TypedText: CommandLineValue, Equatable {
    let text: String

    static func argument(_ text: String) throws(ValidationError) -> TypedText {
        TypedText(text: text)
    }

    static var completion: CompletionKind { .default }
}

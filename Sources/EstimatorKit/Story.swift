/// One thing a round estimates: a tracker's key (`ABC-123`, `ENG-42`,
/// `octo/app#12`), when it has one, and its summary.
///
/// A story comes from a backlog file or from a round's title; either way it
/// is text from outside, so it is kept on one line without controls
/// (`init(key:summary:)`), and a terminal still sanitises it.
public struct Story: Hashable, Sendable {
    /// The tracker's key; `nil` for a story without one.
    public let key: String?
    /// What the story is about; empty when only the key was given.
    public let summary: String

    /// Longest key kept, in characters.
    public static let maximumKeyLength = 100
    /// Longest summary kept, in characters: Jira's limit for a summary.
    public static let maximumSummaryLength = 255

    /// A story with `key` and `summary` on one line each: runs of
    /// whitespace (line breaks too) become one space, controls, bidi
    /// overrides and escape sequences are removed (`TerminalText.sanitize`),
    /// the ends are trimmed, and an empty key is none.
    public init(key: String?, summary: String) {
        let key = key.map(Self.oneLine)
        self.key = key?.isEmpty == false ? key : nil
        self.summary = Self.oneLine(summary)
    }

    /// A story written as a line of a plain backlog or a round's title:
    /// `KEY summary` when the first word looks like a tracker's key (`ABC-123`
    /// as in Jira and Linear, `#12` or `owner/repo#12` as on GitHub; a colon
    /// after it is dropped), else the whole line is the summary.
    public init(line: String) {
        let text = Self.oneLine(line)
        let first = text.prefix { $0 != " " }
        let word = first.hasSuffix(":") ? first.dropLast() : first[...]
        if Self.looksLikeKey(word) {
            self.init(key: String(word), summary: String(text.dropFirst(first.count)))
        } else {
            self.init(key: nil, summary: text)
        }
    }

    /// The story as a round's title: `ABC-123 Login with passkeys`, the key
    /// alone, or the summary alone. `init(line:)` reads it back.
    public var title: String {
        guard let key else { return summary }
        return summary.isEmpty ? key : key + " " + summary
    }

    /// Whether `other` is the same story: the same key (case aside) when
    /// either has one, else the same summary.
    public func isSame(as other: Story) -> Bool { identity == other.identity }

    /// What tells stories apart: the key, else the summary.
    package var identity: Identity {
        key.map { .key($0.lowercased()) } ?? .summary(summary)
    }

    package enum Identity: Hashable {
        case key(String)
        case summary(String)
    }

    /// `ABC-123` (letters, digits and `_` starting with a capital, a dash,
    /// digits), `#12`, or `owner/repo#12`.
    static func looksLikeKey(_ word: Substring) -> Bool {
        let scalars = Array(word.unicodeScalars)
        func isDigits(_ part: ArraySlice<Unicode.Scalar>) -> Bool {
            !part.isEmpty && part.allSatisfy { ("0"..."9").contains($0) }
        }
        if let hash = scalars.lastIndex(of: "#") {
            let repository = scalars[..<hash]
            let slashes = repository.filter { $0 == "/" }.count
            let plain = repository.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./".unicodeScalars.contains($0) }
            return isDigits(scalars[(hash + 1)...]) && (repository.isEmpty || slashes == 1 && plain
                && repository.first != "/" && repository.last != "/")
        }
        guard let dash = scalars.lastIndex(of: "-"), let first = scalars.first, ("A"..."Z").contains(first) else { return false }
        let project = scalars[..<dash]
        return isDigits(scalars[(dash + 1)...])
            && project.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// `text` on one line: sanitised, whitespace runs as one space, trimmed.
    public static func oneLine(_ text: String) -> String {
        // Printable ASCII with single spaces inside is one line already:
        // nearly every title, and it needs none of the Unicode properties.
        let bytes = text.utf8
        if bytes.first != 0x20, bytes.last != 0x20,
           zip(bytes, bytes.dropFirst()).allSatisfy({ !($0 == 0x20 && $1 == 0x20) }),
           bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) {
            return text
        }
        // Line breaks and tabs become spaces before the sanitiser would drop them.
        let spaced = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.isWhitespace ? " " : $0 }))
        return TerminalText.sanitize(spaced).split(separator: " ").joined(separator: " ")
    }
}

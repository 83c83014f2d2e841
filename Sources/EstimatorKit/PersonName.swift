/// The name a person is shown by in everyone's table, as it goes on the air:
/// NFC-normalised, at most 12 bytes of UTF-8, never cut inside a character.
public struct PersonName: Hashable, Sendable, CustomStringConvertible {
    /// Room in the 18-byte local name after the 6-byte header (docs/PROTOCOL.md, Names).
    public static let maxUTF8Count = 12

    /// Typed text longer than a control request's line is refused rather
    /// than cut: it is no name but a paste, too long to echo in a warning.
    public static let maxTypedUTF8Count = ControlRequest.maximumLength

    /// The name, ready for a packet.
    public let text: String

    public var description: String { text }

    private init(text: String) { self.text = text }

    /// Makes a name from what a person typed, saying what was changed.
    ///
    /// Surrounding spaces are trimmed and the text NFC-normalised (some
    /// keyboards type Korean decomposed, three times longer), then cut to
    /// 12 bytes between grapheme clusters, so `👍🏽` or a Hangul syllable
    /// is kept whole or dropped whole; a space the cut leaves at the end goes
    /// too (`Christopher Robin` → `Christopher`). Only text of more than
    /// `maxTypedUTF8Count` bytes is refused for its length.
    public static func parse(_ input: String) throws(PersonNameError)
        -> (name: PersonName, warnings: [PersonNameWarning])
    {
        let trimmed = String(input.trimmingWhitespace())
        guard !trimmed.isEmpty else { throw .empty }
        guard trimmed.utf8.count <= maxTypedUTF8Count else { throw .tooLong(byteCount: trimmed.utf8.count) }
        if let bad = trimmed.unicodeScalars.first(where: isForbidden) { throw .controlCharacter(bad) }

        let normalised = nfc(trimmed)
        var cut = ""
        var byteCount = 0
        for character in normalised {
            byteCount += character.utf8.count
            if byteCount > maxUTF8Count { break }
            cut.append(character)
        }
        guard let first = normalised.first, !cut.isEmpty else {
            throw .firstCharacterTooLong(byteCount: normalised.first?.utf8.count ?? 0)
        }
        cut = String(cut.trimmingWhitespace())
        var warnings: [PersonNameWarning] = []
        if cut.utf8.count < normalised.utf8.count {
            warnings.append(.shortened(from: normalised, to: cut))
        }
        if cut.count == 1 { warnings.append(.invisibleToApp(String(first))) }
        return (PersonName(text: cut), warnings)
    }

    /// `name` as the clash rule compares names: NFC, without default-ignorable
    /// code points (zero-width spaces and joiners, variation selectors) or
    /// format characters, so that two names that look alike (`Gina` and
    /// `Gi\u{200B}na`) are one name to it, whoever sent them.
    public static func clashKey(_ name: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in nfc(name).unicodeScalars
        where !scalar.properties.isDefaultIgnorableCodePoint && scalar.properties.generalCategory != .format {
            kept.append(scalar)
        }
        return String(kept)
    }

    /// Controls and whatever else `TerminalText.sanitize` would remove: a peer
    /// would see a different name from the one typed.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || TerminalText.isRemoved(scalar.value)
    }

    /// The standard library's own NFC (the one Foundation uses), so that this
    /// pure module need not load Foundation and ICU for one normalisation.
    private static func nfc(_ s: String) -> String {
        String(decoding: s._nfcCodeUnits, as: UTF8.self)
    }
}

/// A name that cannot go on the air.
public enum PersonNameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing but spaces.
    case empty
    /// More than `PersonName.maxTypedUTF8Count` bytes: pasted text.
    case tooLong(byteCount: Int)
    /// A control character, escape, bidi override or line separator.
    case controlCharacter(Unicode.Scalar)
    /// The first character alone takes more than 12 bytes (a long emoji sequence).
    case firstCharacterTooLong(byteCount: Int)

    public var description: String {
        switch self {
        case .empty:
            "The name is empty; give a name of 1 to \(PersonName.maxUTF8Count) bytes."
        case .tooLong(let count):
            "The name is \(count) bytes of text, not a name; give a name (one longer than \(PersonName.maxUTF8Count) bytes is cut to fit)."
        case .controlCharacter(let scalar):
            "The name contains the control character \(scalar.codePoint); use printable text only."
        case .firstCharacterTooLong(let count):
            "The name's first character takes \(count) bytes, more than the \(PersonName.maxUTF8Count) a packet has room for; start with a shorter one."
        }
    }
}

/// Something a person should know about the name they gave.
public enum PersonNameWarning: Equatable, Sendable, CustomStringConvertible {
    /// Longer than 12 bytes of UTF-8: cut at the last whole character that fits.
    case shortened(from: String, to: String)
    /// The Estimator app ignores packets shorter than 8 characters, so it
    /// never shows a person whose name is one character.
    case invisibleToApp(String)

    public var description: String {
        switch self {
        case .shortened(let long, let short):
            "'\(long)' is longer than \(PersonName.maxUTF8Count) bytes; it was shortened to '\(short)'."
        case .invisibleToApp(let name):
            "The Estimator iOS app does not show one-character names like '\(name)'; use at least two characters to be seen there."
        }
    }
}

extension Unicode.Scalar {
    /// `U+001B`: how a character that should not be printed is named.
    package var codePoint: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

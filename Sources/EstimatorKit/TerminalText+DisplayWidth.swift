extension TerminalText {
    /// The number of terminal columns `s` takes, counted per grapheme cluster:
    /// Hangul, CJK, fullwidth forms and emoji take 2 (an emoji ZWJ sequence or
    /// an emoji with a skin tone is one cluster, so 2), combining marks and
    /// zero-width characters take 0, everything else 1. Control characters
    /// count 0; sanitise first, since a terminal would act on them.
    public static func displayWidth(_ s: String) -> Int {
        // Printable ASCII is a column a byte, each its own cluster: most text
        // a table measures, and it needs none of the Unicode properties.
        if s.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return s.utf8.count }
        return s.reduce(0) { $0 + columns(of: $1) }
    }

    static func columns(of cluster: Character) -> Int {
        let scalars = cluster.unicodeScalars
        guard let base = scalars.first else { return 0 }
        // A leading jamo makes the whole conjoining Hangul syllable (NFD); its
        // filler U+115F is default-ignorable but still opens a 2-wide syllable.
        if isHangulLeadingJamo(base.value) { return 2 }
        if isZeroWidth(base) { return 0 }
        if isWide(base) {
            // VS15 asks for the text presentation of an emoji.
            return base.properties.isEmoji && scalars.contains("\u{FE0E}") ? 1 : 2
        }
        // A text-default emoji becomes a 2-wide picture with VS16 or a skin tone.
        if base.properties.isEmoji,
            scalars.dropFirst().contains(where: { $0 == "\u{FE0F}" || $0.properties.isEmojiModifier })
        {
            return 2
        }
        return 1
    }

    /// Marks that draw on the previous cell, invisible format characters
    /// (ZWJ, ZWSP, variation selectors, bidi controls …), vowel and final
    /// Hangul jamo (they join the leading jamo's cell), and controls.
    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return true }
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return true }
        if v == 0x2028 || v == 0x2029 { return true }
        if v == 0xAD { return false }  // terminals draw the soft hyphen
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        default: return scalar.properties.isDefaultIgnorableCodePoint
        }
    }

    /// 2-wide on its own: emoji shown as pictures by default, ideographs, and
    /// the East Asian wide scripts. The Swift standard library does not expose
    /// the East_Asian_Width property, so those scripts are listed by their
    /// Unicode blocks.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isEmojiPresentation || properties.isIdeographic { return true }
        return wideBlocks.contains { $0.contains(scalar.value) }
    }

    private static func isHangulLeadingJamo(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0xA960...0xA97F).contains(v)
    }

    private static let wideBlocks: [ClosedRange<UInt32>] = [
        0x2329...0x232A,  // angle brackets
        0x2E80...0x2FFF,  // CJK radicals, Kangxi radicals, ideographic description
        0x3000...0x303E,  // CJK symbols and punctuation (U+303F is half-width)
        0x3041...0x33FF,  // kana, Bopomofo, Hangul compatibility jamo, Kanbun,
                          // CJK strokes, enclosed CJK, CJK compatibility
        0x3400...0x4DFF,  // CJK extension A, Yijing hexagram symbols
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi syllables and radicals
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE1F,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth ASCII and punctuation
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x1B2FF,  // Tangut, Khitan, kana supplement and extensions, Nüshu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x3FFFD,  // CJK extensions B and later
    ]
}

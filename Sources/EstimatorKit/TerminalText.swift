/// Text for a terminal from an untrusted source (anything received over the air).
///
/// `sanitize` removes everything a terminal would act on instead of print:
/// C0 and C1 control characters, whole escape sequences (CSI, OSC — including
/// OSC 52 clipboard writes —, DCS, SOS, PM, APC and two-character escapes),
/// bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069), and line or
/// paragraph separators; invalid UTF-8 becomes U+FFFD. What is left is plain
/// printable text on one line. `displayWidth` says how many terminal columns
/// that text takes, so tables align with Hangul, CJK and emoji in them.
public enum TerminalText {
    /// `s` without controls, escape sequences, bidi overrides or line breaks.
    public static func sanitize(_ s: String) -> String {
        var filter = EscapeFilter()
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            filter.feed(scalar) { out.append($0) }
        }
        return String(out)
    }

    /// Decodes `bytes` as UTF-8, replacing invalid sequences with U+FFFD, then
    /// sanitises the result like `sanitize(_:)`.
    public static func sanitize(bytes: some Sequence<UInt8>) -> String {
        sanitize(String(decoding: Array(bytes), as: UTF8.self))
    }

    /// Controls, bidi overrides/isolates and line/paragraph separators: the
    /// scalars `sanitize` drops outside escape sequences.
    static func isRemoved(_ v: UInt32) -> Bool {
        v < 0x20 || (0x7F...0x9F).contains(v)
            || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x2028 || v == 0x2029
    }
}

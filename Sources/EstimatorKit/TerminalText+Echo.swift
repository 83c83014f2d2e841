extension TerminalText {
    /// The most characters of a person's input an error message quotes back.
    public static let echoLimit = 40

    /// `input` as an error message quotes it: sanitised, and cut to
    /// `echoLimit` characters with `…` after, so a pasted paragraph (or a
    /// 100 KB argument) is not printed back whole.
    public static func echo(_ input: String) -> String {
        let clean = sanitize(input)
        guard clean.count > echoLimit else { return clean }
        return String(clean.prefix(echoLimit)) + "…"
    }
}

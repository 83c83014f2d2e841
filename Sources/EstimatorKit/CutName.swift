/// A name as it arrives after a radio cut it to fit: an iPhone advertises
/// the app's local name shortened to 8 bytes, which can end inside a
/// character (docs/PROTOCOL.md, The Estimator app).
enum CutName {
    /// `bytes` decoded as UTF-8 up to the last whole character: a
    /// character begun at the very end and not finished is dropped, and
    /// `isCut` says so. Invalid bytes anywhere else still decode as U+FFFD.
    static func decode(_ bytes: ArraySlice<UInt8>) -> (name: String, isCut: Bool) {
        let end = wholeEnd(bytes)
        return (String(decoding: bytes[..<end], as: UTF8.self), end < bytes.endIndex)
    }

    /// Where the last whole character ends: before a trailing lead byte
    /// whose continuation bytes are missing, else the end.
    private static func wholeEnd(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>.Index {
        var start = bytes.endIndex
        // A character is at most 4 bytes: its lead byte is among the last 3
        // when it is unfinished.
        while start > bytes.startIndex, bytes.endIndex - start < 3 {
            start -= 1
            let byte = bytes[start]
            guard byte & 0xC0 == 0x80 else {
                return bytes.endIndex - start < length(lead: byte) ? start : bytes.endIndex
            }
        }
        return bytes.endIndex
    }

    /// How many bytes a character starting with `lead` takes; 1 for ASCII
    /// and for bytes that start no character.
    private static func length(lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 1
        }
    }
}

import EstimatorKit
import Glibc
import Testing

/// `displayWidth` is computed from Unicode properties; the C library's
/// `wcwidth` is an independent implementation, so agreement on every
/// assigned scalar is strong evidence that tables will align.
@Suite struct DisplayWidthOracleTests {
    private typealias WCWidth = @convention(c) (Int32) -> Int32

    @Test func agreesWithTheCLibraryOnEveryAssignedScalar() throws {
        let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth"))
        let wcwidth = unsafeBitCast(symbol, to: WCWidth.self)
        // wcwidth answers for the thread's locale; switch only this thread.
        let utf8 = try #require(newlocale(LC_CTYPE_MASK, "C.UTF-8", nil))
        let previous = uselocale(utf8)
        defer {
            uselocale(previous)
            freelocale(utf8)
        }

        var disagreements: [String] = []
        for value in UInt32(0x20)...0x3FFFF {
            guard let scalar = Unicode.Scalar(value), !Self.differsByDesign(scalar) else { continue }
            let expected = wcwidth(Int32(value))
            guard expected >= 0 else { continue }  // unassigned or private use
            let actual = TerminalText.displayWidth(String(Character(scalar)))
            if actual != expected {
                disagreements.append("\(scalar.codePoint): \(actual), C library \(expected)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(20))")
    }

    /// Where we choose differently: a lone regional indicator is drawn as a
    /// 2-wide emoji letter; Hangul fillers are default-ignorable (we count 0);
    /// invisible format characters and a few spacing marks are drawn on
    /// their own by some terminals and not by others.
    private static func differsByDesign(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format, .spacingMark: return true
        default: break
        }
        return (0x1F1E6...0x1F1FF).contains(scalar.value) || scalar.value == 0x3164 || scalar.value == 0xFFA0
    }
}

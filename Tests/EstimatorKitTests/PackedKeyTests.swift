import EstimatorKit
import Testing

/// A tracker's key in one meeting part (docs/PROTOCOL.md, Meeting).
@Suite struct PackedKeyTests {
    @Test(arguments: [
        ("ABC-123", [0x80, 0x08, 0x08, 0x00, 0x7B] as [UInt8]),
        ("ENG-7", [0x80, 0x36, 0x50, 0x00, 0x07]),
        ("PLAT-1042", [0x98, 0xC3, 0x80, 0x04, 0x12]),
        ("#12", [0x80, 0x00, 0x00, 0x00, 0x0C]),
        ("A-0", [0x80, 0x00, 0x02, 0x00, 0x00]),
    ])
    func theVectorsPackAndUnpack(key: String, bytes: [UInt8]) {
        #expect(PackedKey.pack(key) == bytes)
        #expect(PackedKey.unpack(bytes) == key)
    }

    @Test(arguments: ["Z-131071", "Z___-1", "A9_Z-40", "#131071", "Q-1", "AB-10"])
    func everyFormThatPacksComesBackAsItWas(key: String) throws {
        let bytes = try #require(PackedKey.pack(key))
        #expect(bytes.count == PackedKey.length && PackedKey.isMarker(bytes[0]))
        #expect(PackedKey.unpack(bytes) == key)
    }

    /// Anything else goes as text, as it was written.
    @Test(arguments: ["ABCDE-1", "ABC-131072", "ABC-007", "abc-1", "_AB-1", "ABC-", "-1", "A-B-1", "owner/repo#12",
                      "#", "##1", "#012", "ÄB-1", "AB-1234567"])
    func otherKeysDoNotPack(key: String) {
        #expect(PackedKey.pack(key) == nil)
    }

    /// Every 5 bytes with the marker are a key that packs back to them, or
    /// none: a hostile part cannot say two things.
    @Test func unpackedBytesPackBackToThemselves() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let bytes = [0x80 | UInt8.random(in: 0...0x3F, using: &random)] + (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) }
            if let key = PackedKey.unpack(bytes) { #expect(PackedKey.pack(key) == bytes, "\(bytes)") }
        }
        #expect(PackedKey.unpack([0xBF, 0xFF, 0xFF, 0xFF, 0xFF]) == nil)
        #expect(PackedKey.unpack([0x41, 0x42, 0x43, 0x2D, 0x31]) == nil, "text")
        #expect(PackedKey.unpack([0x80, 0x08, 0x08, 0x00]) == nil, "4 bytes")
    }
}

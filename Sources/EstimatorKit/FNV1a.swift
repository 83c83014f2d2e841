/// FNV-1a, the non-cryptographic hash of the formats that name a thing by a
/// few bytes of it: the relay's topic for a forwarded peer, the meeting's
/// checksum on the air. Fixed by those formats: never Swift's `Hasher`,
/// which is seeded per process.
package enum FNV1a {
    /// The 32-bit hash of `bytes`.
    package static func hash32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes {
            hash ^= UInt32(byte)
            hash &*= 0x0100_0193
        }
        return hash
    }

    /// The 64-bit hash of `bytes`.
    package static func hash64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// FNV-1a, the non-cryptographic hash of the formats that name a thing by a
/// few bytes of it: the relay's topic for a forwarded peer, the meeting's
/// checksum on the air. Fixed by those formats: never Swift's `Hasher`,
/// which is seeded per process.
package enum FNV1a {
    /// The 32-bit hash of `bytes`.
    package static func hash32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        hash(bytes, basis: 0x811C_9DC5, prime: 0x0100_0193)
    }

    /// The 64-bit hash of `bytes`.
    package static func hash64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        hash(bytes, basis: 0xCBF2_9CE4_8422_2325, prime: 0x0000_0100_0000_01B3)
    }

    /// FNV-1a of `bytes` with the offset basis and prime of a width.
    private static func hash<Hash: FixedWidthInteger & UnsignedInteger>(_ bytes: some Sequence<UInt8>, basis: Hash,
                                                                       prime: Hash) -> Hash {
        bytes.reduce(basis) { hash, byte in (hash ^ Hash(byte)) &* prime }
    }
}

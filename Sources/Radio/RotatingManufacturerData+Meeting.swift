import BlueZ

extension RotatingManufacturerData {
    /// A meeting's parts as the advertisement carries them
    /// (docs/PROTOCOL.md, Meeting): manufacturer data of company 0xFFFF,
    /// which the Bluetooth SIG keeps for none assigned (estimator has
    /// none); nil without parts.
    static func meeting(_ parts: [[UInt8]]) -> RotatingManufacturerData? {
        parts.isEmpty ? nil : RotatingManufacturerData(company: Sighting.unassignedCompany, parts: parts)
    }
}

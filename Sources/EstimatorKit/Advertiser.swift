/// The device an advertisement came from over the air, as the radio names
/// it: what tells app users apart (docs/PROTOCOL.md, Peers).
public struct Advertiser: Hashable, Sendable {
    /// The radio's name for the device: BlueZ's address of it
    /// (`AA:BB:CC:DD:EE:FF`). A phone's random address changes about every
    /// 15 minutes, so one phone is several devices over time.
    public let address: String
    /// Whether it advertises as LE discoverable (limited or general), as
    /// an iPhone's app does and estimator never can (BlueZ refuses the
    /// flag to a broadcast advertisement).
    public let isDiscoverable: Bool

    public init(address: String, isDiscoverable: Bool) {
        self.address = address
        self.isDiscoverable = isDiscoverable
    }
}

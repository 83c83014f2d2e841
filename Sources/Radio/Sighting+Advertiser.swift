import BlueZ
import EstimatorKit

extension Sighting {
    /// The device as the room tells app users apart by it.
    package var advertiser: Advertiser { Advertiser(address: address, isDiscoverable: isDiscoverable) }
}

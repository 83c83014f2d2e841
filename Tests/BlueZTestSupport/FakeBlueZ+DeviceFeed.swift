import DBus

extension FakeBlueZ {
    /// Load, for soak tests and benchmarks: `count` advertisers under
    /// `adapter`, each heard once every `interval`, their receptions spread
    /// evenly over it (as a room's peers are not heard in bursts).
    ///
    /// A device's first reception adds its `Device1` (`InterfacesAdded`, as
    /// BlueZ does for a new device); later ones change its `Name` and `RSSI`
    /// (`PropertiesChanged`). `name(device, round)` gives the local name of
    /// device `device` (0..<count) in round `round` (0, 1, …). Runs until the
    /// returned task is cancelled or the fake's connection fails.
    public func feedDevices(
        count: Int, every interval: Duration, on adapter: String = "hci0", uuids: [String],
        name: @escaping @Sendable (_ device: Int, _ round: Int) -> String
    ) -> Task<Void, Never> {
        let gap = interval / max(count, 1)
        return Task { [weak self] in
            let clock = ContinuousClock()
            var deadline = clock.now
            for round in 0... {
                for device in 0..<count {
                    deadline = deadline.advanced(by: gap)
                    do { try await clock.sleep(until: deadline) } catch { return }
                    guard let self else { return }
                    let id = Self.feedAddress(device)
                    let rssi = Int16(-40 - (device * 7 + round) % 50)
                    do {
                        if round == 0 {
                            try deviceFound(id, on: adapter, name: name(device, round), rssi: rssi, uuids: uuids)
                        } else {
                            try deviceChanged(id, on: adapter, ["Name": .string(name(device, round)), "RSSI": .int16(rssi)])
                        }
                    } catch {
                        return
                    }
                }
            }
        }
    }

    /// `00:FE:ED:00:HH:LL`, distinct for each device number.
    static func feedAddress(_ device: Int) -> String {
        func hex(_ byte: Int) -> String {
            let digits = Array("0123456789ABCDEF")
            return String([digits[(byte >> 4) & 0xF], digits[byte & 0xF]])
        }
        return "00:FE:ED:00:\(hex(device >> 8)):\(hex(device))"
    }
}

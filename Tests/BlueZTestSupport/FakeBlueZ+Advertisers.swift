import DBus

extension FakeBlueZ {
    /// What one reception of an advertiser carries.
    public struct Reception: Sendable, Equatable {
        public var name: String
        public var rssi: Int16

        public init(name: String, rssi: Int16) {
            self.name = name
            self.rssi = rssi
        }
    }

    /// A room of `count` advertisers under `adapter`, for benchmarks: each is
    /// heard once every `interval`, the receptions spread evenly over it.
    ///
    /// Signals as bluetoothd sends them while discovering: a device's first
    /// reception adds its `Device1` (`InterfacesAdded`, and it is in
    /// `GetManagedObjects` from then on); later ones send a `PropertiesChanged`
    /// with only the properties that changed (an advertising report whose
    /// RSSI and data are unchanged sends nothing). `reception(device, round)`
    /// gives device `device` (0..<count) in round `round` (0, 1, …). Runs until
    /// the returned task is cancelled or the fake's connection fails.
    public func emitAdvertisers(
        count: Int, every interval: Duration, on adapter: String = "hci0", uuids: [String],
        reception: @escaping @Sendable (_ device: Int, _ round: Int) -> Reception
    ) -> Task<Void, Never> {
        let gap = interval / max(count, 1)
        return Task { [weak self] in
            let clock = ContinuousClock()
            var deadline = clock.now
            var last: [Reception?] = Array(repeating: nil, count: count)
            for round in 0... {
                for device in 0..<count {
                    deadline = deadline.advanced(by: gap)
                    do { try await clock.sleep(until: deadline) } catch { return }
                    guard let self else { return }
                    let heard = reception(device, round)
                    let id = Self.advertiserAddress(device)
                    do {
                        if let previous = last[device] {
                            var changed: [String: Value] = [:]
                            if heard.rssi != previous.rssi { changed["RSSI"] = .int16(heard.rssi) }
                            if heard.name != previous.name {
                                changed["Name"] = .string(heard.name)
                                changed["Alias"] = .string(heard.name)
                            }
                            if !changed.isEmpty { try deviceChanged(id, on: adapter, changed) }
                        } else {
                            addDevice(id, on: adapter, name: heard.name, rssi: heard.rssi, uuids: uuids)
                            try deviceFound(id, on: adapter, name: heard.name, rssi: heard.rssi, uuids: uuids)
                        }
                    } catch {
                        return
                    }
                    last[device] = heard
                }
            }
        }
    }

    /// `00:AD:00:00:HH:LL`, distinct for each advertiser number.
    static func advertiserAddress(_ device: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        func hex(_ byte: Int) -> String { String([digits[(byte >> 4) & 0xF], digits[byte & 0xF]]) }
        return "00:AD:00:00:\(hex(device >> 8)):\(hex(device))"
    }
}

import BlueZTestSupport
import DBusTestSupport

extension FakeBlueZ {
    /// A device found that keeps advertising, as a laptop or a phone does:
    /// its signal is reported again every 200 ms until the task is
    /// cancelled (or the fake goes), with whatever name it has then. The
    /// signal floor (`SignalFloor`) finds nobody from one reading, so a
    /// peer that must be in the room is heard so.
    func advertise(_ address: String, on adapter: String = "hci0", name: String, rssi: Int16,
                   uuids: [String]) throws -> Task<Void, any Error> {
        try deviceFound(address, on: adapter, name: name, rssi: rssi, uuids: uuids)
        return Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(200))
                try deviceChanged(address, on: adapter, ["RSSI": .int16(rssi)])
            }
        }
    }
}

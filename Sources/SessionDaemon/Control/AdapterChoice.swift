import BlueZ
import EstimatorKit

/// `--adapter`: a Bluetooth adapter by its kernel name (`hci1`) or by its
/// controller's address (`AA:BB:CC:DD:EE:FF`, as `bluetoothctl list` shows it).
package enum AdapterChoice: Equatable, Sendable {
    case name(String)
    case address(String)

    /// As typed: `hci1` or the address.
    package var text: String {
        switch self {
        case let .name(name): name
        case let .address(address): address
        }
    }

    /// The adapter's kernel name, the one sessions are known by: a name as
    /// is, an address asked of bluetoothd.
    package func resolved() async throws(UserError) -> String {
        guard case let .address(address) = self else { return text }
        let adapters: [Adapter]
        do { adapters = try await BlueZ.system().adapters() } catch {
            throw UserError(.unavailable, "Cannot ask bluetoothd which adapter has the address \(address) (\(error)); give its name, like hci0, or run `estimator doctor`.")
        }
        guard let adapter = adapters.first(where: { $0.matches(address) }) else {
            let known = adapters.map { "\($0.name) \($0.address)" }.joined(separator: ", ")
            throw UserError(.unavailable, "No adapter has the address \(address)\(known.isEmpty ? "" : " (there are \(known))"); `bluetoothctl list` shows them.")
        }
        return adapter.name
    }
}

import ArgumentParser
import BlueZ
import EstimatorKit

/// `--adapter`: a Bluetooth adapter by its kernel name (`hci1`) or by its
/// controller's address (`AA:BB:CC:DD:EE:FF`, as `bluetoothctl list` shows it).
enum AdapterChoice: CommandLineValue, Equatable {
    case name(String)
    case address(String)

    static func argument(_ text: String) throws(ValidationError) -> AdapterChoice {
        if AdapterName.isValid(text) { return .name(text) }
        if AdapterName.isAddress(text) { return .address(text.uppercased()) }
        throw ValidationError(AdapterName.rule + ".")
    }

    /// The kernel's adapters; a shell offers them after `--adapter`.
    static var completion: CompletionKind {
        .shellCommand("ls /sys/class/bluetooth 2>/dev/null | grep -x 'hci[0-9]*'")
    }

    /// As typed: `hci1` or the address.
    var text: String {
        switch self {
        case let .name(name): name
        case let .address(address): address
        }
    }

    /// The adapter's kernel name, the one sessions are known by: a name as
    /// is, an address asked of bluetoothd.
    func resolved() async throws(UserError) -> String {
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

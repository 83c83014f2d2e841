import DBus

/// A failure talking to BlueZ, classified so a caller can say what to fix.
///
/// `kind` is what went wrong; `name` is the D-Bus error name behind it (such as
/// `org.bluez.Error.NotReady`) when there was one, and `message` its text.
public struct BlueZError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The system bus cannot be reached.
        case busUnavailable
        /// Nobody owns `org.bluez`: bluetoothd is not running.
        case bluetoothdAbsent
        /// No adapter matches the request (or there is none at all).
        case adapterNotFound
        /// The adapter is powered off (`org.bluez.Error.NotReady`).
        case notPowered
        /// Every advertising instance of the adapter is taken
        /// (`org.bluez.Error.NotPermitted` "Maximum advertisements reached").
        case noAdvertisingSlot
        /// The bus's security policy refused the call
        /// (`org.freedesktop.DBus.Error.AccessDenied`).
        case accessDenied
        /// BlueZ released the advertisement or the object went away.
        case released
        /// Any other error; see `name` and `message`.
        case failed
    }

    public let kind: Kind
    /// The D-Bus error name this came from, if any.
    public let name: DBusError.Name?
    /// Human-readable detail.
    public let message: String

    /// An error of `kind`; `name` is the D-Bus error behind it, if any.
    public init(_ kind: Kind, name: DBusError.Name? = nil, message: String) {
        self.kind = kind
        self.name = name
        self.message = message
    }

    public var description: String {
        guard let name else { return message }
        return "\(message) (\(name.rawValue))"
    }

    static let notReady: DBusError.Name = "org.bluez.Error.NotReady"
    static let notPermitted: DBusError.Name = "org.bluez.Error.NotPermitted"
    static let notAuthorized: DBusError.Name = "org.bluez.Error.NotAuthorized"
    static let fileNotFound: DBusError.Name = "org.freedesktop.DBus.Error.FileNotFound"

    /// Classifies a D-Bus error from a call to BlueZ.
    package init(_ error: DBusError) {
        let kind: Kind
        switch error.name {
        case .serviceUnknown, .nameHasNoOwner: kind = .bluetoothdAbsent
        case .noServer, Self.fileNotFound, .badAddress: kind = .busUnavailable
        case .accessDenied, Self.notAuthorized: kind = .accessDenied
        case Self.notReady: kind = .notPowered
        // BlueZ's only NotPermitted from RegisterAdvertisement: "Maximum advertisements reached".
        case Self.notPermitted where error.message.lowercased().contains("maximum advertisements"):
            kind = .noAdvertisingSlot
        case .unknownObject: kind = .adapterNotFound
        default: kind = .failed
        }
        self.init(kind, name: error.name, message: Self.sentence(for: kind, error))
    }

    /// Runs `body`, turning any `DBusError` into a `BlueZError`.
    static func mapping<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DBusError {
            throw BlueZError(error)
        }
    }

    private static func sentence(for kind: Kind, _ error: DBusError) -> String {
        switch kind {
        case .busUnavailable: "the D-Bus system bus is not reachable: \(error.message)"
        case .bluetoothdAbsent: "bluetoothd is not running (nobody owns org.bluez on the system bus)"
        case .adapterNotFound: "the Bluetooth adapter is gone"
        case .notPowered: "the Bluetooth adapter is powered off"
        case .noAdvertisingSlot: "the adapter has no free advertising slot: \(error.message)"
        case .accessDenied: "the D-Bus policy does not let this user talk to bluetoothd: \(error.message)"
        case .released, .failed: error.message.isEmpty ? error.name.rawValue : error.message
        }
    }
}

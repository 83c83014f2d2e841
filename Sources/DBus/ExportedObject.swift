import CDBus
import Synchronization
import Threads

/// An object this connection serves on the bus. Its lifetime is the registration:
/// `unexport()` (or dropping the last reference) removes it.
///
///     let advertisement = try await bus.export("/org/example/adv0", interfaces: [
///         Interface("org.bluez.LEAdvertisement1",
///             methods: [Method("Release") { _ in released(); return [] }],
///             properties: [Property("Type", .string("broadcast")), Property("LocalName", .string("x"))]),
///     ], caller: .owner(of: "org.bluez"))
///     try advertisement.setProperty("LocalName", .string("y"), interface: "org.bluez.LEAdvertisement1")
public final class ExportedObject: Sendable {
    /// Where the object lives.
    public let path: ObjectPath
    /// Who may call it.
    public let caller: CallerPolicy
    private let connection: Connection
    private let interfaces: [String: Interface]
    private let exported = Atomic<Bool>(true)

    init(path: ObjectPath, caller: CallerPolicy, connection: Connection, interfaces: [Interface]) {
        self.path = path
        self.caller = caller
        self.connection = connection
        self.interfaces = Dictionary(interfaces.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    deinit { unexport() }

    /// Changes a property and emits `PropertiesChanged` if its value changed.
    public func setProperty(_ name: String, _ value: Value, interface: String) throws(DBusError) {
        try setProperties([name: value], interface: interface)
    }

    /// Changes several properties of one interface in one `PropertiesChanged` signal.
    public func setProperties(_ changes: [String: Value], interface: String) throws(DBusError) {
        for (name, value) in changes {
            let property = try declaredProperty(name, interface: interface)
            guard value.type == property.type else {
                throw .invalidArguments("property \(name) is \(property.type), not \(value.type)")
            }
            try value.validate()
        }
        let path = self.path
        try onLoop { $0.updateProperties(path: path, interface: interface, changes) }
    }

    /// Emits `PropertiesChanged` with the current values of `names`, unchanged:
    /// for a peer that acts on the signal itself (BlueZ re-programs an
    /// advertisement on each one).
    public func repeatProperties(_ names: [String], interface: String) throws(DBusError) {
        for name in names { _ = try declaredProperty(name, interface: interface) }
        let path = self.path
        try onLoop { $0.repeatProperties(path: path, interface: interface, names) }
    }

    private func declaredProperty(_ name: String, interface: String) throws(DBusError) -> Property {
        guard let declared = interfaces[interface] else { throw .invalidArguments("\(path) has no interface \(interface)") }
        guard let property = declared.properties.first(where: { $0.name == name }) else {
            throw .invalidArguments("\(interface) has no property \(name)")
        }
        return property
    }

    /// Runs `job` on the connection's event loop, which owns the exported values.
    private func onLoop(_ job: @escaping @Sendable (ConnectionCore) -> Void) throws(DBusError) {
        let core = connection.core
        guard core.loop.perform({ job(core) }) else { throw .disconnected() }
    }

    /// Emits a signal from this object.
    public func emit<each Argument: DBusEncodable>(
        interface: String, member: String, _ arguments: repeat each Argument
    ) throws(DBusError) {
        try connection.emit(path: path, interface: interface, member: member, repeat each arguments)
    }

    /// Removes the object from the bus; calls to it then fail with `UnknownMethod`.
    public func unexport() {
        guard exported.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let core = connection.core
        let path = self.path
        let caller = self.caller
        core.loop.perform {
            core.objects.removeValue(forKey: path)
            if case .owner(let name) = caller, NameOwners.needsTracking(name) { core.untrackOwner(of: name) }
        }
    }
}

extension Connection {
    /// Serves `interfaces` at `path`, answering only callers `caller` allows. Returns once
    /// the object is reachable; throws if `path` is already exported on this connection.
    public func export(
        _ path: ObjectPath, interfaces: [Interface], caller: CallerPolicy = .anyone
    ) async throws -> ExportedObject {
        for interface in interfaces { try interface.validate() }
        if case .owner(let name) = caller {
            guard DBusSyntax.isBusName(name) else { throw DBusError.invalidArguments("bad bus name \"\(name)\"") }
            if NameOwners.needsTracking(name) { try await core.trackOwner(of: name) }
        }
        let core = self.core
        let entry = ExportedObjectEntry(path: path, interfaces: interfaces, caller: caller, handlersOn: SessionLoop.current)
        let added: Bool = try await withCheckedThrowingContinuation { continuation in
            let posted = core.loop.perform {
                guard core.objects[path] == nil else { return continuation.resume(returning: false) }
                core.objects[path] = entry
                continuation.resume(returning: true)
            }
            if !posted { continuation.resume(throwing: DBusError.disconnected()) }
        }
        guard added else {
            if case .owner(let name) = caller, NameOwners.needsTracking(name) {
                core.loop.perform { core.untrackOwner(of: name) }
            }
            throw DBusError.invalidArguments("\(path) is already exported on this connection")
        }
        return ExportedObject(path: path, caller: caller, connection: self, interfaces: interfaces)
    }
}

/// The loop thread's record of an exported object, with its current property values.
/// Built elsewhere but only used on the loop thread after it is handed over.
final class ExportedObjectEntry: @unchecked Sendable {
    let path: ObjectPath
    let interfaces: [Interface]
    let caller: CallerPolicy
    /// The loop the object was exported from, if any: its method handlers
    /// run there, as a task made on the D-Bus thread inherits no executor.
    let handlersOn: SessionLoop?
    var values: [String: [String: Value]] = [:]

    init(path: ObjectPath, interfaces: [Interface], caller: CallerPolicy, handlersOn: SessionLoop?) {
        self.path = path
        self.interfaces = interfaces
        self.caller = caller
        self.handlersOn = handlersOn
        for interface in interfaces {
            var properties: [String: Value] = [:]
            for property in interface.properties { properties[property.name] = property.value }
            values[interface.name] = properties
        }
    }

    func interface(named name: String) -> Interface? { interfaces.first { $0.name == name } }
}

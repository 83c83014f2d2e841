import DBus

/// An object's interfaces and their properties, as `GetManagedObjects` gives them.
package typealias InterfaceProperties = [String: [String: Value]]

/// One change to BlueZ's object tree, from the ObjectManager and Properties signals.
package enum ObjectChange: Sendable {
    case added(ObjectPath, InterfaceProperties)
    case removed(ObjectPath, interfaces: [String])
    case propertiesChanged(ObjectPath, interface: String, changed: [String: Value], invalidated: [String])
}

/// `org.freedesktop.DBus.ObjectManager` of `org.bluez`: the object list and its changes.
struct ObjectManager: Sendable {
    static let service = "org.bluez"
    static let interface = "org.freedesktop.DBus.ObjectManager"
    static let properties = "org.freedesktop.DBus.Properties"

    let bus: Connection

    /// Every object BlueZ has, by path.
    func objects() async throws -> [ObjectPath: InterfaceProperties] {
        try await BlueZError.mapping {
            let reply = try await bus.call(
                destination: Self.service, path: .root, interface: Self.interface, member: "GetManagedObjects")
            return try reply.decode([ObjectPath: InterfaceProperties].self)
        }
    }

    /// Changes to objects at or below `root` (to `root` alone when `subtree` is
    /// false), from now on. Subscribe before reading `objects()` so nothing falls
    /// between the snapshot and the stream.
    ///
    /// `interfaces` limits the property changes to those interfaces' (additions
    /// and removals all come): a follower of adapters is then not woken by every
    /// device's reception.
    func changes(under root: ObjectPath, subtree: Bool = true, interfaces: [String]) async throws
        -> SignalStream<ObjectChange>
    {
        let rules = Self.rules(under: root, subtree: subtree, interfaces: interfaces)
        return try await BlueZError.mapping {
            try await bus.signals(matchingAny: rules) { message in
                guard let change = try Self.decode(message), change.path.isDescendant(of: root) else {
                    throw DBusError.invalidArguments("not a change under \(root)")
                }
                return change
            }
        }
    }

    /// Runs `handler` for each signal `changes(under:interfaces:)` would decode,
    /// undecoded, on the bus connection's reading thread as it is read (see
    /// `Connection.handleSignals`), for a consumer that reads only what it needs.
    /// `ended` runs if the connection is lost.
    func handleSignals(
        under root: ObjectPath, interfaces: [String], ended: @escaping @Sendable (DBusError) -> Void,
        _ handler: @escaping @Sendable (Message) -> Void
    ) async throws -> SignalHandler {
        let rules = Self.rules(under: root, interfaces: interfaces)
        return try await BlueZError.mapping { try await bus.handleSignals(matchingAny: rules, ended: ended, handler) }
    }

    /// org.bluez's additions and removals of `root` and the objects below it, and
    /// the wanted interfaces' property changes there (of `root` alone when
    /// `subtree` is false): the bus drops the rest (other adapters' devices, other
    /// interfaces' changes) before they reach us. One subscription, so additions,
    /// removals and changes stay in bus order.
    ///
    /// An addition's or removal's first argument is the object's path:
    /// `arg0path` takes `root` itself, and with a trailing `/` what is below it.
    private static func rules(under root: ObjectPath, subtree: Bool = true, interfaces: [String]) -> [MatchRule] {
        // "/" with a trailing "/" would be "//": "/" alone takes every path already.
        let objects = subtree && root != .root ? [root.rawValue, root.rawValue + "/"] : [root.rawValue]
        return objects.map { MatchRule(sender: service, interface: Self.interface, pathArguments: [0: $0]) }
            + interfaces.map {
                MatchRule(sender: service, path: subtree ? nil : root, pathNamespace: subtree ? root : nil,
                          interface: properties, member: "PropertiesChanged", arguments: [0: $0])
            }
    }

    /// The change a signal describes, nil for other signals.
    static func decode(_ message: Message) throws -> ObjectChange? {
        switch (message.interface, message.member) {
        case (Self.interface, "InterfacesAdded"):
            let (path, interfaces) = try message.decode(ObjectPath.self, InterfaceProperties.self)
            return .added(path, interfaces)
        case (Self.interface, "InterfacesRemoved"):
            let (path, interfaces) = try message.decode(ObjectPath.self, [String].self)
            return .removed(path, interfaces: interfaces)
        case (Self.properties, "PropertiesChanged"):
            guard let path = message.path else { return nil }
            let (interface, changed, invalidated) = try message.decode(String.self, [String: Value].self, [String].self)
            return .propertiesChanged(path, interface: interface, changed: changed, invalidated: invalidated)
        default:
            return nil
        }
    }
}

extension ObjectChange {
    var path: ObjectPath {
        switch self {
        case .added(let path, _), .removed(let path, _), .propertiesChanged(let path, _, _, _): path
        }
    }
}

/// A local copy of BlueZ's objects, kept current by applying `ObjectChange`s.
package struct ObjectCache: Sendable {
    package private(set) var objects: [ObjectPath: InterfaceProperties]

    /// A cache holding `objects`, none by default.
    package init(_ objects: [ObjectPath: InterfaceProperties] = [:]) { self.objects = objects }

    /// The properties of `interface` on `path`, if the object has that interface.
    package subscript(path: ObjectPath, interface: String) -> [String: Value]? { objects[path]?[interface] }

    /// Applies a change; returns the interface's properties after it (nil when removed).
    @discardableResult
    package mutating func apply(_ change: ObjectChange) -> [String: Value]? {
        switch change {
        case .added(let path, let interfaces):
            objects[path, default: [:]].merge(interfaces) { _, new in new }
            return nil
        case .removed(let path, let interfaces):
            for interface in interfaces { objects[path]?[interface] = nil }
            if objects[path]?.isEmpty == true { objects[path] = nil }
            return nil
        case .propertiesChanged(let path, let interface, let changed, let invalidated):
            // A change for an object we never saw added is still worth keeping: it
            // says the object exists with at least these properties.
            var properties = objects[path]?[interface] ?? [:]
            properties.merge(changed) { _, new in new }
            for name in invalidated { properties[name] = nil }
            objects[path, default: [:]][interface] = properties
            return properties
        }
    }
}

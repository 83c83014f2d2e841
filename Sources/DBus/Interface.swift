/// One D-Bus interface an exported object implements: methods, properties, signals.
public struct Interface: Sendable {
    /// The interface name, such as `org.bluez.LEAdvertisement1`.
    public let name: String
    public var methods: [Method]
    public var properties: [Property]
    public var signals: [SignalDescription]

    public init(_ name: String, methods: [Method] = [], properties: [Property] = [], signals: [SignalDescription] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    func validate() throws(DBusError) {
        guard DBusSyntax.isInterfaceName(name) else { throw .invalidArguments("bad interface name \"\(name)\"") }
        for method in methods where !DBusSyntax.isMemberName(method.name) {
            throw .invalidArguments("bad method name \"\(method.name)\"")
        }
        for property in properties {
            guard DBusSyntax.isMemberName(property.name) else { throw .invalidArguments("bad property name \"\(property.name)\"") }
            guard property.value.type == property.type else {
                throw .invalidArguments("property \(property.name) is \(property.type) but its value is \(property.value.type)")
            }
            try property.value.validate()
        }
    }
}

/// A method of an exported interface.
public struct Method: Sendable {
    /// What a handler gets: the call, and who made it.
    public typealias Handler = @Sendable (Message) async throws -> [Value]

    public let name: String
    /// The argument types callers must send; anything else is refused with `InvalidArgs`
    /// before the handler runs.
    public let input: Signature
    /// The types the handler returns (checked before the reply is sent).
    public let output: Signature
    let handler: Handler

    /// A method whose handler decodes its arguments from the call (they already match
    /// `input`) and returns the reply's values. Throw a `DBusError` to reply with it.
    public init(_ name: String, input: Signature = "", output: Signature = "", handler: @escaping Handler) {
        self.name = name
        self.input = input
        self.output = output
        self.handler = handler
    }
}

/// A property of an exported interface, served through `org.freedesktop.DBus.Properties`.
public struct Property: Sendable {
    /// Called when a peer sets a writable property; throw a `DBusError` to refuse.
    public typealias SetHandler = @Sendable (Value) async throws -> Void

    public let name: String
    public let type: DBusType
    /// The initial value; change it with `ExportedObject.setProperty`.
    public let value: Value
    let onSet: SetHandler?

    /// A read-only property.
    public init(_ name: String, _ value: Value) {
        self.name = name
        self.type = value.type
        self.value = value
        onSet = nil
    }

    /// A writable property: `onSet` approves a peer's new value before it is stored.
    public init(_ name: String, _ value: Value, onSet: @escaping SetHandler) {
        self.name = name
        self.type = value.type
        self.value = value
        self.onSet = onSet
    }

    var isWritable: Bool { onSet != nil }
}

/// A signal an interface may emit, for introspection.
public struct SignalDescription: Sendable {
    public let name: String
    public let arguments: Signature
    public init(_ name: String, arguments: Signature = "") {
        self.name = name
        self.arguments = arguments
    }
}

/// Who may call an exported object's methods (its properties and introspection too).
public enum CallerPolicy: Sendable, Hashable {
    /// Any connection on the bus.
    case anyone
    /// Only whoever owns this bus name at the time of the call: a well-known name such
    /// as `org.bluez` (followed across restarts), or a unique name.
    case owner(of: String)
}

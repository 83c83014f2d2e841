import CDBus

/// Method calls to exported objects, on the loop thread: caller check, introspection,
/// properties, and the objects' own methods (which run as tasks, on the session's
/// loop for an object exported from it).
extension ConnectionCore {
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let properties = "org.freedesktop.DBus.Properties"

    func handleMethodCall(_ call: Message) -> DBusHandlerResult {
        guard let path = call.path else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        let interface = call.interface
        let member = call.member ?? ""
        guard let entry = objects[path] else {
            // A path on the way to exported objects still introspects, listing its children.
            let children = childNames(of: path)
            guard !children.isEmpty, member == "Introspect", interface == nil || interface == Self.introspectable
            else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            reply(to: call, [.string(Introspection.xml(interfaces: [], children: children))])
            return DBUS_HANDLER_RESULT_HANDLED
        }
        guard isAllowed(entry.caller, call) else {
            fail(call, DBusError(name: .accessDenied, message: "\(call.sender ?? "this caller") may not call \(path)"))
            return DBUS_HANDLER_RESULT_HANDLED
        }
        switch interface {
        case Self.introspectable?:
            guard member == "Introspect" else { return unknownMethod(call) }
            reply(to: call, [.string(Introspection.xml(interfaces: entry.interfaces, children: childNames(of: path)))])
        case Self.properties?:
            handleProperties(call, member, entry)
        default:
            let candidates = interface.map { name in entry.interfaces.filter { $0.name == name } } ?? entry.interfaces
            if let interface, candidates.isEmpty {
                if member == "Introspect" { return unknownMethod(call) }
                fail(call, DBusError(name: .unknownInterface, message: "\(path) has no interface \(interface)"))
                return DBUS_HANDLER_RESULT_HANDLED
            }
            if interface == nil, member == "Introspect", call.signature.rawValue.isEmpty {
                reply(to: call, [.string(Introspection.xml(interfaces: entry.interfaces, children: childNames(of: path)))])
                return DBUS_HANDLER_RESULT_HANDLED
            }
            guard let method = candidates.lazy.compactMap({ $0.methods.first { $0.name == member } }).first else {
                return unknownMethod(call)
            }
            guard call.signature == method.input else {
                fail(call, .invalidArguments("\(member) takes \"\(method.input)\", not \"\(call.signature)\""))
                return DBUS_HANDLER_RESULT_HANDLED
            }
            Task(executorPreference: entry.handlersOn) { [self] in
                do {
                    let values = try await method.handler(call)
                    let types = values.map(\.type.signature).joined()
                    guard types == method.output.rawValue else {
                        return fail(call, DBusError(name: .failed, message: "\(member) produced \"\(types)\", not \"\(method.output)\""))
                    }
                    reply(to: call, values)
                } catch {
                    fail(call, Self.dbusError(error))
                }
            }
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }

    private func handleProperties(_ call: Message, _ member: String, _ entry: ExportedObjectEntry) {
        switch (member, call.signature.rawValue) {
        case ("Get", "ss"):
            guard let (interface, name) = try? call.decode(String.self, String.self) else { return }
            guard let value = entry.values[interface]?[name] else { return fail(call, unknownProperty(interface, name)) }
            reply(to: call, [.variant(value)])
        case ("GetAll", "s"):
            guard let interface = try? call.decode(String.self) else { return }
            guard let values = entry.values[interface] else {
                return fail(call, DBusError(name: .unknownInterface, message: "\(entry.path) has no interface \(interface)"))
            }
            var dictionary: [Value: Value] = [:]
            for (name, value) in values { dictionary[.string(name)] = .variant(value) }
            reply(to: call, [.dictionary(key: .string, value: .variant, dictionary)])
        case ("Set", "ssv"):
            guard let (interface, name, value) = try? call.decode(String.self, String.self, Value.self) else { return }
            guard let property = entry.interface(named: interface)?.properties.first(where: { $0.name == name }) else {
                return fail(call, unknownProperty(interface, name))
            }
            guard let onSet = property.onSet else {
                return fail(call, DBusError(name: .propertyReadOnly, message: "\(interface).\(name) is read-only"))
            }
            guard value.type == property.type else {
                return fail(call, .invalidArguments("\(interface).\(name) is \(property.type), not \(value.type)"))
            }
            let path = entry.path
            Task(executorPreference: entry.handlersOn) { [self] in
                do {
                    try await onSet(value)
                    loop.perform { [self] in
                        updateProperties(path: path, interface: interface, [name: value])
                        reply(to: call, [])
                    }
                } catch {
                    fail(call, Self.dbusError(error))
                }
            }
        case ("Get", _), ("GetAll", _), ("Set", _):
            fail(call, .invalidArguments("\(member) does not take \"\(call.signature)\""))
        default:
            _ = unknownMethod(call)
        }
    }

    /// Loop thread: stores new values and emits `PropertiesChanged` for those that changed.
    func updateProperties(path: ObjectPath, interface: String, _ changes: [String: Value]) {
        guard let entry = objects[path] else { return }
        var changed: [Value: Value] = [:]
        for (name, value) in changes where entry.values[interface]?[name] != value {
            entry.values[interface, default: [:]][name] = value
            changed[.string(name)] = .variant(value)
        }
        emitPropertiesChanged(path: path, interface: interface, changed)
    }

    /// Sends `PropertiesChanged` with the current values of `names`, though
    /// they did not change.
    func repeatProperties(path: ObjectPath, interface: String, _ names: [String]) {
        guard let values = objects[path]?.values[interface] else { return }
        var repeated: [Value: Value] = [:]
        for name in names { if let value = values[name] { repeated[.string(name)] = .variant(value) } }
        emitPropertiesChanged(path: path, interface: interface, repeated)
    }

    private func emitPropertiesChanged(path: ObjectPath, interface: String, _ changed: [Value: Value]) {
        guard !changed.isEmpty,
            let signal = try? Message.signal(path: path, interface: Self.properties, member: "PropertiesChanged"),
            (try? signal.append(contentsOf: [
                .string(interface), .dictionary(key: .string, value: .variant, changed), .array(element: .string, []),
            ])) != nil
        else { return }
        _ = dbus_connection_send(raw, signal.raw, nil)
    }

    private func isAllowed(_ policy: CallerPolicy, _ call: Message) -> Bool {
        guard case .owner(let name) = policy else { return true }
        guard let sender = call.sender else { return false }
        if !NameOwners.needsTracking(name) { return sender == name }
        return owners[name]?.owner == sender
    }

    /// The next path element of every exported object below `path`.
    private func childNames(of path: ObjectPath) -> [String] {
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        var names = Set<String>()
        for exported in objects.keys where exported.rawValue.hasPrefix(prefix) && exported != path {
            if let next = exported.rawValue.dropFirst(prefix.count).split(separator: "/").first { names.insert(String(next)) }
        }
        return names.sorted()
    }

    private func unknownProperty(_ interface: String, _ name: String) -> DBusError {
        DBusError(name: .unknownProperty, message: "no property \(interface).\(name)")
    }

    private func unknownMethod(_ call: Message) -> DBusHandlerResult {
        fail(call, DBusError(
            name: .unknownMethod,
            message: "no method \(call.member ?? "") with signature \"\(call.signature)\" on \(call.interface ?? "any interface")"))
        return DBUS_HANDLER_RESULT_HANDLED
    }

    private static func dbusError(_ error: any Error) -> DBusError {
        (error as? DBusError) ?? DBusError(name: .failed, message: String(describing: error))
    }

    /// Any thread: answers a call (unless the caller asked for no reply).
    func reply(to call: Message, _ values: [Value]) {
        guard dbus_message_get_no_reply(call.raw) == 0 else { return }
        do {
            let reply = try call.makeReturn()
            try reply.append(contentsOf: values)
            send(reply)
        } catch {
            fail(call, error)
        }
    }

    /// Any thread: answers a call with an error.
    func fail(_ call: Message, _ error: DBusError) {
        guard dbus_message_get_no_reply(call.raw) == 0, let reply = try? call.makeError(error) else { return }
        send(reply)
    }
}

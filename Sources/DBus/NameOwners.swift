import CDBus

/// Who owns a well-known name, kept current from `NameOwnerChanged` (loop thread).
final class OwnerEntry {
    var owner: String?
    var references = 0
    var isKnown = false
    var waiters: [(Result<Void, DBusError>) -> Void] = []
    var watchers: [Int: (update: (String?) -> Void, finish: (DBusError) -> Void)] = [:]

    func finish(_ error: DBusError) {
        for waiter in waiters { waiter(.failure(error)) }
        waiters.removeAll()
        for watcher in watchers.values { watcher.finish(error) }
        watchers.removeAll()
    }
}

enum NameOwners {
    /// Unique names and the bus itself need no lookup.
    static func needsTracking(_ name: String) -> Bool {
        !name.hasPrefix(":") && name != "org.freedesktop.DBus"
    }

    static func ownerChangedRule(_ name: String) -> String {
        MatchRule(
            sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameOwnerChanged", arguments: [0: name]
        ).description
    }

    static func driverCall(_ member: String, _ argument: String) -> Message? {
        guard let message = try? Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: member),
            (try? message.append(argument)) != nil
        else { return nil }
        return message
    }
}

extension Connection {
    /// Who owns `name` (a unique name, or nil when nobody does): first the current owner,
    /// then every change, such as `org.bluez` going away and coming back. Consecutive
    /// values always differ. Ends with `Disconnected` when the connection does.
    public func nameOwner(of name: String) async throws -> NameOwnerStream {
        guard DBusSyntax.isBusName(name) else { throw DBusError.invalidArguments("bad bus name \"\(name)\"") }
        let core = self.core
        try await core.trackOwner(of: name)
        let (stream, continuation) = AsyncThrowingStream<String?, any Error>.makeStream()
        let id: Int = try await withCheckedThrowingContinuation { registered in
            let posted = core.loop.perform {
                guard let entry = core.owners[name] else { return registered.resume(throwing: DBusError.disconnected()) }
                let id = core.nextSubscriptionID
                core.nextSubscriptionID += 1
                entry.watchers[id] = (
                    update: { continuation.yield($0) },
                    finish: { continuation.finish(throwing: $0) })
                continuation.yield(entry.owner)
                registered.resume(returning: id)
            }
            if !posted { registered.resume(throwing: DBusError.disconnected()) }
        }
        let token = StreamToken(connection: self) { connection in
            let core = connection.core
            core.loop.perform {
                if let entry = core.owners[name], let watcher = entry.watchers.removeValue(forKey: id) {
                    watcher.finish(DBusError.disconnected("unsubscribed"))
                }
                core.untrackOwner(of: name)
            }
        }
        continuation.onTermination = { _ in token.cancel() }
        return NameOwnerStream(stream: stream, token: token)
    }
}

/// The owners of one bus name over time (nil: nobody owns it). Single-consumer.
public struct NameOwnerStream: AsyncSequence, Sendable {
    public typealias Element = String?
    fileprivate let stream: AsyncThrowingStream<String?, any Error>
    fileprivate let token: StreamToken

    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate var iterator: AsyncThrowingStream<String?, any Error>.AsyncIterator
        fileprivate let token: StreamToken

        public mutating func next() async throws -> String?? {
            try await next(isolation: nil)
        }

        /// The next owner; runs in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> String?? {
            try await StreamToken.ending(iterator: &iterator, isolation: actor)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(iterator: stream.makeAsyncIterator(), token: token)
    }

    /// Stops watching now; iteration then ends normally.
    public func cancel() { token.cancel() }
}

extension ConnectionCore {
    /// Starts (or joins) tracking `name`; returns once its current owner is known.
    func trackOwner(of name: String) async throws {
        let _: Void = try await withCheckedThrowingContinuation { continuation in
            let posted = loop.perform { [self] in
                retainOwner(of: name) { continuation.resume(with: $0) }
            }
            if !posted { continuation.resume(throwing: DBusError.disconnected()) }
        }
    }

    /// Loop thread: adds a reference, and on the first one asks the bus.
    func retainOwner(of name: String, ready: @escaping (Result<Void, DBusError>) -> Void) {
        if let entry = owners[name] {
            entry.references += 1
            if entry.isKnown { ready(.success(())) } else { entry.waiters.append(ready) }
            return
        }
        let entry = OwnerEntry()
        entry.references = 1
        entry.waiters.append(ready)
        owners[name] = entry
        guard let addMatch = NameOwners.driverCall("AddMatch", NameOwners.ownerChangedRule(name)),
            let getOwner = NameOwners.driverCall("GetNameOwner", name)
        else { return failOwner(name, entry, .outOfMemory) }
        // The bus answers in order, so a change racing the lookup is applied in order too.
        _ = startCall(addMatch, timeoutMilliseconds: -1) { [self] result in
            if case .failure(let error) = result { failOwner(name, entry, error) }
        }
        _ = startCall(getOwner, timeoutMilliseconds: -1) { [self] result in
            guard owners[name] === entry else { return }
            switch result {
            case .success(let reply): setOwner(entry, (try? reply.decode(String.self)))
            case .failure(let error) where error.name == .nameHasNoOwner: setOwner(entry, nil)
            case .failure(let error): return failOwner(name, entry, error)
            }
            entry.isKnown = true
            let waiters = entry.waiters
            entry.waiters.removeAll()
            for waiter in waiters { waiter(.success(())) }
        }
    }

    private func failOwner(_ name: String, _ entry: OwnerEntry, _ error: DBusError) {
        guard owners[name] === entry else { return }
        owners.removeValue(forKey: name)
        entry.finish(error)
    }

    /// Loop thread: drops a reference; the last one removes the bus's match rule.
    func untrackOwner(of name: String) {
        guard let entry = owners[name] else { return }
        entry.references -= 1
        guard entry.references <= 0 else { return }
        owners.removeValue(forKey: name)
        if let removeMatch = NameOwners.driverCall("RemoveMatch", NameOwners.ownerChangedRule(name)) {
            dbus_message_set_no_reply(removeMatch.raw, 1)
            _ = dbus_connection_send(raw, removeMatch.raw, nil)
        }
    }

    /// Loop thread: applies a `NameOwnerChanged` from the bus driver.
    func noteOwnerChange(_ message: Message) {
        guard message.header(dbus_message_get_member, equals: Self.nameOwnerChanged),
            let (name, _, newOwner) = try? message.decode(String.self, String.self, String.self),
            let entry = owners[name]
        else { return }
        setOwner(entry, newOwner.isEmpty ? nil : newOwner)
    }

    private func setOwner(_ entry: OwnerEntry, _ owner: String?) {
        let changed = entry.owner != owner || !entry.isKnown
        entry.owner = owner
        if changed { for watcher in entry.watchers.values { watcher.update(owner) } }
    }

    static let nameOwnerChanged = Array("NameOwnerChanged".utf8CString)
}

import CDBus
import Synchronization

/// The state behind a `Connection`, owned by its event-loop thread.
///
/// Everything marked "loop thread" is only touched from jobs or libdbus callbacks on
/// that thread, which is why the routing tables need no locks.
final class ConnectionCore: @unchecked Sendable {
    let raw: OpaquePointer
    let loop: EventLoop
    private let name = Mutex<String?>(nil)

    // Loop thread.
    var subscriptions: [Int: Subscription] = [:]
    var nextSubscriptionID = 0
    /// Whether a stream has signals in this round's batch, to hand over when it ends.
    private var batched = false
    var owners: [String: OwnerEntry] = [:]
    var objects: [ObjectPath: ExportedObjectEntry] = [:]
    /// Calls in flight, so a lost connection can fail them whatever libdbus does.
    var calls: [Int: CallRecord] = [:]
    private var nextCallID = 0
    private var finished = false

    init(raw: OpaquePointer) throws(DBusError) {
        self.raw = raw
        loop = try EventLoop(connection: raw)
        dbus_connection_set_exit_on_disconnect(raw, 0)
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard dbus_connection_add_filter(raw, messageFilter, me, nil) != 0 else { throw .outOfMemory }
        // The loop thread keeps this core alive until the connection is gone.
        loop.start(
            afterDispatch: { [self] in
                if batched {
                    for subscription in subscriptions.values { subscription.flush() }
                    batched = false
                }
                if dbus_connection_get_is_connected(raw) != 0 { return true }
                connectionEnded()
                return false
            },
            readingPaused: { [self] in
                subscriptions.values.contains(where: \.isBacklogged)
            },
            batching: { [self] in batched },
            awaitingReply: { [self] in !calls.isEmpty },
            onExit: { [self] in
                dbus_connection_remove_filter(raw, messageFilter, Unmanaged.passUnretained(self).toOpaque())
                dbus_connection_unref(raw)
            })
    }

    /// The unique name the bus gave us, once registered.
    var uniqueName: String? { name.withLock { $0 } }

    func setUniqueName(_ unique: String) {
        name.withLock { $0 = unique }
        loop.perform { [self] in _ = dbus_bus_set_unique_name(raw, unique) }
    }

    /// Closes the connection; everything pending ends with a `Disconnected` error.
    func close() {
        loop.perform { [self] in dbus_connection_close(raw) }
    }

    // MARK: - Sending (loop thread)

    /// Sends without waiting for a reply.
    func send(_ message: Message) {
        loop.perform { [self] in _ = dbus_connection_send(raw, message.raw, nil) }
    }

    /// Sends a call; `completion` runs on the loop thread with the reply or error.
    func startCall(
        _ message: Message, timeoutMilliseconds: Int32,
        completion: @escaping (Result<Message, DBusError>) -> Void
    ) -> CallRecord {
        let id = nextCallID
        nextCallID += 1
        let record = CallRecord(id: id) { [self] result in
            calls.removeValue(forKey: id)
            completion(result)
        }
        calls[id] = record
        var pending: OpaquePointer? = nil
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, timeoutMilliseconds) != 0 else {
            record.complete(.failure(.outOfMemory))
            return record
        }
        guard let pending else {
            record.complete(.failure(.disconnected()))
            return record
        }
        record.pending = pending
        let data = Unmanaged.passRetained(record).toOpaque()
        guard dbus_pending_call_set_notify(pending, pendingCallNotify, data, releaseCallRecord) != 0 else {
            Unmanaged<CallRecord>.fromOpaque(data).release()
            record.cancel()
            record.complete(.failure(.outOfMemory))
            return record
        }
        // Completed before the notify function was in place: deliver it now.
        if dbus_pending_call_get_completed(pending) != 0 { record.deliver(from: pending) }
        return record
    }

    // MARK: - Receiving (loop thread)

    fileprivate func handle(_ rawMessage: OpaquePointer) -> DBusHandlerResult {
        let type = dbus_message_get_type(rawMessage)
        if type == Int32(DBUS_MESSAGE_TYPE_SIGNAL) {
            let message = Message(taking: dbus_message_ref(rawMessage))
            if message.header(dbus_message_get_sender, equals: Self.busDriver) {
                noteOwnerChange(message)
            }
            for subscription in subscriptions.values {
                let matched = subscription.rules.contains { $0.matches(message, senderOwner: senderOwner(for:)) }
                if matched, subscription.deliver(message) { batched = true }
            }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if type == Int32(DBUS_MESSAGE_TYPE_METHOD_CALL) {
            return handleMethodCall(Message(taking: dbus_message_ref(rawMessage)))
        }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }

    static let busDriver = Array("org.freedesktop.DBus".utf8CString)

    /// The unique name a rule's sender stands for right now.
    private func senderOwner(for sender: String) -> String? {
        if sender.hasPrefix(":") || sender == "org.freedesktop.DBus" { return sender }
        return owners[sender]?.owner
    }

    /// Ends every stream and handle once the connection is gone.
    private func connectionEnded() {
        guard !finished else { return }
        finished = true
        let error = DBusError.disconnected("the connection to the bus was lost")
        for subscription in subscriptions.values { subscription.finish(error) }
        subscriptions.removeAll()
        for entry in owners.values { entry.finish(error) }
        owners.removeAll()
        objects.removeAll()
        let orphans = calls.values
        calls.removeAll()
        for call in orphans {
            call.cancel(keepingCompletion: true)
            call.complete(.failure(error))
        }
    }
}

/// One call in flight: owned by libdbus's pending call, completed once on the loop thread.
final class CallRecord: @unchecked Sendable {
    let id: Int
    var pending: OpaquePointer?
    private var completion: ((Result<Message, DBusError>) -> Void)?

    init(id: Int, completion: @escaping (Result<Message, DBusError>) -> Void) {
        self.id = id
        self.completion = completion
    }

    func complete(_ result: Result<Message, DBusError>) {
        guard let completion else { return }
        self.completion = nil
        completion(result)
    }

    /// Takes the reply out of a completed pending call.
    func deliver(from pending: OpaquePointer) {
        guard self.pending != nil else { return }
        self.pending = nil
        let reply = dbus_pending_call_steal_reply(pending)
        dbus_pending_call_unref(pending)
        guard let reply else { return complete(.failure(DBusError(name: .noReply, message: "no reply"))) }
        let message = Message(taking: reply)
        if let error = message.error { complete(.failure(error)) } else { complete(.success(message)) }
    }

    /// Gives up on the reply; the caller has been answered unless `keepingCompletion`.
    func cancel(keepingCompletion: Bool = false) {
        if !keepingCompletion { completion = nil }
        guard let pending else { return }
        self.pending = nil
        dbus_pending_call_cancel(pending)
        dbus_pending_call_unref(pending)
    }
}

private let pendingCallNotify: DBusPendingCallNotifyFunction = { pending, data in
    Unmanaged<CallRecord>.fromOpaque(data!).takeUnretainedValue().deliver(from: pending!)
}

private let releaseCallRecord: DBusFreeFunction = { data in
    Unmanaged<CallRecord>.fromOpaque(data!).release()
}

private let messageFilter: DBusHandleMessageFunction = { _, message, data in
    Unmanaged<ConnectionCore>.fromOpaque(data!).takeUnretainedValue().handle(message!)
}

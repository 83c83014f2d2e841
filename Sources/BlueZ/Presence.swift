import DBus
import Threads

/// Whether bluetoothd is on the bus.
public enum BlueZPresence: Sendable, Hashable {
    /// `org.bluez` has an owner (its unique bus name).
    case present(owner: String)
    /// Nobody owns `org.bluez`: bluetoothd is not running.
    case absent
}

extension BlueZ {
    /// bluetoothd's presence: the current state first, then every change (it
    /// stopping, crashing, starting again). After `.present` following `.absent`,
    /// earlier advertisements and discoveries are gone; the caller re-establishes them.
    public func presence() async throws -> AsyncThrowingStream<BlueZPresence, any Error> {
        let owners = try await BlueZError.mapping { try await bus.nameOwner(of: ObjectManager.service) }
        let (stream, continuation) = AsyncThrowingStream<BlueZPresence, any Error>.makeStream()
        let task = Task(executorPreference: SessionLoop.current) {
            do {
                for try await owner in owners {
                    continuation.yield(owner.map { .present(owner: $0) } ?? .absent)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: (error as? DBusError).map(BlueZError.init) ?? error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

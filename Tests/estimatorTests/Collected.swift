import DBusTestSupport
import Synchronization

/// What a test collects as it comes from another task (a watcher's lines,
/// the session's reports), awaitable: by count, or until one it wants has
/// come.
final class Collected<Item: Sendable>: Sendable {
    private let state = Mutex<(items: [Item], waiters: CountWaiters)>(([], CountWaiters()))

    func append(_ item: Item) {
        let ready = state.withLock { state in
            state.items.append(item)
            return state.waiters.reached(state.items.count)
        }
        for waiter in ready { waiter.resume() }
    }

    var all: [Item] { state.withLock { $0.items } }

    /// Returns once `count` items have come.
    func wait(count: Int) async {
        await withCheckedContinuation { continuation in
            state.withLock { $0.waiters.wait(for: count, current: $0.items.count, continuation) }?.resume()
        }
    }

    /// Returns once an item satisfies `isWanted`. Each wait counts from the
    /// items already looked at, so one that comes between a look and the
    /// wait ends the wait instead of being missed.
    func wait(until isWanted: (Item) -> Bool) async {
        var looked = 0
        while true {
            let items = all
            if items[looked...].contains(where: isWanted) { return }
            looked = items.count
            await wait(count: looked + 1)
        }
    }
}

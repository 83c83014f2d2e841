extension AsyncStream<FakeBlueZ.Call> {
    /// The next call the fake saw that `matches`, skipping others.
    public func next(where matches: (FakeBlueZ.Call) -> Bool) async -> FakeBlueZ.Call? {
        for await call in self where matches(call) { return call }
        return nil
    }

    /// The next call that `matches` if it comes within `limit`, else nil:
    /// for a call that may never come, so that its absence fails the test
    /// instead of hanging it. When the limit passes first the stream ends
    /// (an `AsyncStream` ends when its waiting consumer is cancelled), so it
    /// is a test's last wait on the calls.
    public func next(within limit: Duration, where matches: @escaping @Sendable (FakeBlueZ.Call) -> Bool) async
        -> FakeBlueZ.Call?
    {
        await withTaskGroup(of: FakeBlueZ.Call?.self) { group in
            group.addTask { await self.next(where: matches) }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

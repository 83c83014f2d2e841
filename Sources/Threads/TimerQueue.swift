/// Work due at deadlines, in the order it falls due: earliest deadline
/// first, and in the order it was added for equal deadlines (two sleeps to
/// one instant resume in the order they began).
///
/// Pure: time is passed in, in nanoseconds of one clock of the caller's
/// choosing. A handful of entries at a time (a session's timers), so a
/// sorted array beats a heap.
public struct TimerQueue<Work> {
    private struct Entry {
        let deadline: Int64
        let order: UInt64
        let work: Work
    }

    private var entries: [Entry] = []
    private var added: UInt64 = 0

    public init() {}

    /// The earliest deadline, or `nil` when nothing is due.
    public var nextDeadline: Int64? { entries.first?.deadline }

    public var isEmpty: Bool { entries.isEmpty }

    /// What `add` returns: the entry's number, for `remove`, and whether it
    /// is now the earliest (whoever waits for the earliest must wait less).
    public struct Added: Equatable {
        public let id: UInt64
        public let isEarliest: Bool
    }

    /// Adds `work` at `deadline`.
    @discardableResult
    public mutating func add(_ work: Work, at deadline: Int64) -> Added {
        let entry = Entry(deadline: deadline, order: added, work: work)
        added &+= 1
        let index = entries.firstIndex { $0.deadline > deadline } ?? entries.endIndex
        entries.insert(entry, at: index)
        return Added(id: entry.order, isEarliest: index == 0)
    }

    /// Takes the entry `id` out before it falls due (a cancelled sleep),
    /// so that it wakes nobody; returns its work, or `nil` if it is gone.
    public mutating func remove(_ id: UInt64) -> Work? {
        guard let index = entries.firstIndex(where: { $0.order == id }) else { return nil }
        return entries.remove(at: index).work
    }

    /// Removes and returns, in order, the work due at `now`.
    public mutating func takeDue(now: Int64) -> [Work] {
        let due = entries.prefix { $0.deadline <= now }
        guard !due.isEmpty else { return [] }
        entries.removeFirst(due.count)
        return due.map(\.work)
    }
}

import EstimatorKit

/// The session's history: when what `HistoryKeeper` holds is written, and
/// what the core is told of it (docs/ARCHITECTURE.md, EstimatorKit: the
/// history). A command's change is saved at once; the room's at most once
/// a `HistoryKeeper.saveEvery`; a failed save again when it falls due.
extension Session {
    /// Saves what the history holds now, tells the core whether it is
    /// saved, and arms the retry of a save that failed.
    @discardableResult
    func saveHistory() -> UserError? {
        historyWait?.cancel()
        historyWait = nil
        guard let saveRecord else { return nil }
        historySaves += 1
        let failure = history.save(at: clock.elapsed, now: clock.now, with: saveRecord)
        if let failure { trace("history: \(failure.sentence)") }
        execute(board.take(.historySaved(unsavedSince: history.unsaved?.since, reason: history.unsaved?.failure.sentence)))
        if failure != nil { armHistoryWait() }
        return failure
    }

    /// Saves what is held if a save is due, else once it falls due: the
    /// room's re-votes are written at most once a `HistoryKeeper.saveEvery`.
    func saveHistoryWhenDue() {
        guard let due = history.due else { return }
        if due <= clock.elapsed { saveHistory() } else { armHistoryWait() }
    }

    /// Waits for the next save of what is held; leaving saves it instead.
    private func armHistoryWait() {
        historyWait?.cancel()
        historyWait = nil
        guard !hasEnded, let due = history.due else { return }
        historyWait = Task(executorPreference: loop) { [clock] in
            do { try await clock.sleep(until: due) } catch { return }
            await self.historyFallsDue()
        }
    }

    private func historyFallsDue() {
        historyWait = nil
        saveHistoryWhenDue()
    }
}

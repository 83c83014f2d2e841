@testable import estimator

extension ManualClock {
    /// Leaves `session`, moving this clock through the leave broadcast.
    func leave(_ session: Session, sleeping: Int = 1) async {
        let leaving = Task { await session.leave() }
        await passLeaveBroadcast(sleeping: sleeping)
        await leaving.value
    }

    /// Runs a leave's broadcast to its end: moves the clock on by each half
    /// of it once the session sleeps. `sleeping`: how many sleep at first
    /// (the tick, if running, wakes into the ended session and stops).
    func passLeaveBroadcast(sleeping: Int = 1) async {
        await waitForSleepers(sleeping)
        advance(by: RadioSchedule.standard.leaveBroadcast / 2)
        await waitForSleepers()
        advance(by: RadioSchedule.standard.leaveBroadcast / 2)
    }
}

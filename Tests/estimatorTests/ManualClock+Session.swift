import RadioScheduling
import SessionDaemon



/// Moving the clock through what a session sleeps for: its ticks and its
/// leave broadcast.
extension ManualClock {
    /// Runs `count` of the session's ticks: moves time on by a tick each time
    /// the tick sleeps, and returns once it sleeps again.
    func ticks(_ count: Int) async {
        for _ in 0..<count {
            await waitForSleepers()
            advance(by: RadioSchedule.standard.tick)
        }
        await waitForSleepers()
    }

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

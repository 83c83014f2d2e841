import Testing
import Threads

/// The session loop's timers (`TimerQueue`): what falls due, in which order,
/// and when the thread must be woken to wait less.
@Suite struct TimerQueueTests {
    @Test func nothingIsDueBeforeItsDeadline() {
        var timers = TimerQueue<String>()
        timers.add("tick", at: 500)
        let early = timers.takeDue(now: 499)
        #expect(early.isEmpty)
        #expect(timers.nextDeadline == 500)
        let due = timers.takeDue(now: 500)
        #expect(due == ["tick"])
        #expect(timers.isEmpty)
        #expect(timers.nextDeadline == nil)
    }

    @Test func workFallsDueEarliestFirstAndInOrderOfAddingAtOneDeadline() {
        var timers = TimerQueue<String>()
        timers.add("restart", at: 1_500)
        timers.add("tick", at: 500)
        timers.add("settle", at: 1_500)
        timers.add("reannounce", at: 1_000)
        timers.add("second tick", at: 500)
        let first = timers.takeDue(now: 1_200)
        #expect(first == ["tick", "second tick", "reannounce"])
        #expect(timers.nextDeadline == 1_500)
        let rest = timers.takeDue(now: 10_000)
        #expect(rest == ["restart", "settle"])
    }

    @Test func addingSaysWhetherTheNewWorkIsNowTheEarliest() {
        var timers = TimerQueue<Int>()
        let first = timers.add(1, at: 1_000)
        #expect(first.isEarliest, "the first is the earliest")
        let later = timers.add(2, at: 2_000)
        #expect(!later.isEarliest, "a later one changes nothing for a waiting thread")
        let same = timers.add(3, at: 1_000)
        #expect(!same.isEarliest, "nor one at the same deadline, which comes after")
        let earlier = timers.add(4, at: 999)
        #expect(earlier.isEarliest, "an earlier one must wake it")
        let due = timers.takeDue(now: 1_000)
        #expect(due == [4, 1, 3])
    }

    @Test func aRemovedEntryNeverFallsDue() {
        var timers = TimerQueue<String>()
        let cancelled = timers.add("cancelled sleep", at: 100)
        timers.add("tick", at: 500)
        let removed = timers.remove(cancelled.id)
        #expect(removed == "cancelled sleep")
        #expect(timers.nextDeadline == 500, "nothing wakes the thread at 100 any more")
        let again = timers.remove(cancelled.id)
        #expect(again == nil)
        let due = timers.takeDue(now: 1_000)
        #expect(due == ["tick"])
    }
}

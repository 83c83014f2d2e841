import RadioScheduling
import Testing

/// The strict scheduler on its own, without I/O: events in, actions out,
/// on the test clock (`ScheduleDriver`). Each timer of the schedule has a
/// test here or in `LightSchedulerTests` that fails without it.
@Suite struct StrictSchedulerTests: SchedulerSuite {
    /// A strict restart after its interval: forget the app's devices, stop,
    /// announce, settle, start;
    /// the next interval counts from the start.
    @Test func aStrictRestartStopsAnnouncesSettlesAndStarts() {
        var radio = Self.strict()
        #expect(radio.deadlines == [.milliseconds(1500)])
        radio.advance(to: .milliseconds(1499))
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(1500))
        // The app's devices are forgotten first, while still scanning.
        radio.done(.forgetApps)
        radio.done(.stopScan)
        // A restart's announcement moves the parts on.
        radio.done(.announceNextPart)
        // The settle: scanning stays off 50 ms after bluetoothd read the announcement.
        #expect(radio.deadlines == [.milliseconds(1550)])
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(1550))
        radio.done(.startScan)
        #expect(radio.deadlines == [.milliseconds(3050)])
    }

    /// The interval moves by the jitter drawn, at most `jitter` either way.
    @Test(arguments: [(Self.lowest, 1000), (Self.highest, 2000)])
    func theIntervalMovesByTheJitter(_ random: @escaping RadioSchedule.Draw, _ milliseconds: Int) {
        let schedule = Self.schedule(jitter: .milliseconds(500))
        #expect(Self.strict(schedule, random: random).deadlines == [.milliseconds(milliseconds)])
        #expect(Self.light(schedule, random: random).deadlines == [.milliseconds(milliseconds)])
        // Drawn: within the bounds, and not one value for every radio.
        let draws = (0..<100).map { _ in schedule.nextInterval(RadioSchedule.draw) }
        #expect(draws.allSatisfy { $0 >= .milliseconds(1000) && $0 <= .milliseconds(2000) })
        #expect(Set(draws).count > 1)
    }

    /// A sighting 100 ms before a restart is due holds it until 250 ms
    /// after the sighting plus the backoff; sightings that go on hold it
    /// again, for `holdLimit` in all.
    @Test func aDueRestartHoldsAfterASightingWithABackoffUpToItsLimit() {
        var radio = Self.strict(random: Self.lowest)
        radio.advance(to: .milliseconds(1400))
        radio.feed(.heard)
        radio.advance(to: .milliseconds(1500))
        #expect(radio.deadlines == [.milliseconds(1650)])
        radio.advance(to: .milliseconds(1600))
        radio.feed(.heard)
        radio.advance(to: .milliseconds(1650))
        #expect(radio.deadlines == [.milliseconds(1850)])
        #expect(radio.steps.isEmpty)

        // With the most backoff drawn, and a room that never goes quiet:
        // the wait ends 1 s after the restart fell due.
        radio = Self.strict(random: Self.highest)
        radio.advance(to: .milliseconds(1400))
        radio.feed(.heard)
        radio.advance(to: .milliseconds(1500))
        #expect(radio.deadlines == [.milliseconds(1900)])
        for heard in stride(from: 1850, through: 2450, by: 100) {
            radio.advance(to: .milliseconds(heard))
            radio.feed(.heard)
        }
        radio.advance(to: .milliseconds(2499))
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(2500))
        #expect(radio.steps == [.forgetApps, .stopScan])
    }

    @Test func theHoldsBoundsAreTheSchedules() {
        let schedule = Self.schedule()
        #expect(schedule.holdRemaining(sinceSighting: nil, waited: .zero, Self.highest) == .zero)
        #expect(schedule.holdRemaining(sinceSighting: .milliseconds(250), waited: .zero, Self.highest) == .zero)
        #expect(schedule.holdRemaining(sinceSighting: .milliseconds(100), waited: .zero, Self.lowest) == .milliseconds(150))
        #expect(schedule.holdRemaining(sinceSighting: .milliseconds(100), waited: .zero, Self.highest) == .milliseconds(400))
        #expect(schedule.holdRemaining(sinceSighting: .milliseconds(10), waited: .milliseconds(900), Self.highest)
                == .milliseconds(100))
        let draws = (0..<100).map { _ in schedule.holdRemaining(sinceSighting: .milliseconds(100), waited: .zero, RadioSchedule.draw) }
        #expect(draws.allSatisfy { $0 >= .milliseconds(150) && $0 <= .milliseconds(400) })
        #expect(Set(draws).count > 1)
    }

    /// Asked to look again, a due strict restart listens until 1.5 ticks
    /// after the ask, on while asked again, for at most its drawn span.
    @Test func aDueStrictRestartListensWhileAskedForAtMostItsSpan() {
        var radio = Self.strict(random: Self.highest)
        radio.advance(to: .milliseconds(1200))
        radio.feed(.lookAgain)
        radio.advance(to: .milliseconds(1500))
        #expect(radio.deadlines == [.milliseconds(1950)])
        radio.advance(to: .milliseconds(1900))
        radio.feed(.lookAgain)
        radio.advance(to: .milliseconds(1950))
        // Asked until 2650, but the span drawn (all of `listenLimit`, 1 s) ends at 2500.
        #expect(radio.deadlines == [.milliseconds(2500)])
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(2500))
        #expect(radio.steps == [.forgetApps, .stopScan])

        // The least span drawn: a tenth of the limit.
        radio = Self.strict(random: Self.lowest)
        radio.advance(to: .milliseconds(1400))
        radio.feed(.lookAgain)
        radio.advance(to: .milliseconds(1500))
        #expect(radio.deadlines == [.milliseconds(1600)])
    }

    /// A change in the strict mode: its own gap, a settle, then announced
    /// again 0.5 s after scanning started again, in a gap of its own.
    @Test func aStrictChangeIsMadeInAGapAndAnnouncedAgain() {
        var radio = Self.strict()
        radio.advance(to: .milliseconds(100))
        radio.feed(.changeAsked)
        radio.done(.stopScan)
        radio.done(.change)
        #expect(radio.deadlines == [.milliseconds(150), .milliseconds(1500)])
        radio.advance(to: .milliseconds(150))
        radio.done(.startScan)
        #expect(radio.changes == [false])
        #expect(radio.deadlines == [.milliseconds(650), .milliseconds(1500)])
        radio.advance(to: .milliseconds(650))
        radio.done(.stopScan)
        // The change's second announcement repeats its part.
        radio.done(.announceAgain)
        radio.advance(to: .milliseconds(700))
        radio.done(.startScan)
        #expect(radio.deadlines == [.milliseconds(1500)])
        #expect(radio.steps.isEmpty)
    }

    /// One gap at a time: a change asked while a restart's gap runs waits
    /// for its end, and a newer change calls the last one's second
    /// announcement off.
    @Test func aStrictChangeWaitsForTheGapUnderWay() {
        var radio = Self.strict()
        radio.advance(to: .milliseconds(1500))
        radio.done(.forgetApps)
        radio.done(.stopScan)
        radio.feed(.changeAsked)
        radio.done(.announceNextPart)
        radio.advance(to: .milliseconds(1550))
        radio.done(.startScan)
        #expect(radio.steps == [.stopScan])
        radio.done(.stopScan)
        radio.done(.change)
        radio.advance(to: .milliseconds(1600))
        radio.done(.startScan)
        #expect(radio.deadlines == [.milliseconds(2100), .milliseconds(3050)])
        radio.feed(.changeAsked)
        #expect(radio.deadlines == [.milliseconds(3050)])
    }

    /// A failed change starts scanning again, answers the failure and is
    /// not announced again; a failed restart ends the schedule.
    @Test func failuresEndWhatFailed() {
        var radio = Self.strict()
        radio.feed(.changeAsked)
        radio.done(.stopScan)
        radio.done(.change, failed: true)
        radio.done(.startScan)
        #expect(radio.changes == [true])
        #expect(radio.deadlines == [.milliseconds(1500)])
        radio.advance(to: .milliseconds(1500))
        radio.done(.forgetApps)
        radio.done(.stopScan, failed: true)
        #expect(radio.halted)
        #expect(radio.deadlines.isEmpty)
    }

    /// The leave's second half: every timer disarmed, the scan ended.
    @Test func stoppingScanningDisarmsEveryTimer() {
        var strict = Self.strict()
        strict.feed(.changeAsked)
        strict.done(.stopScan)
        strict.done(.change)
        strict.advance(to: .milliseconds(50))
        strict.done(.startScan)
        #expect(strict.deadlines == [.milliseconds(550), .milliseconds(1500)])
        strict.feed(.stopScanning)
        #expect(strict.deadlines.isEmpty)
        #expect(strict.steps == [.endScan])
        var light = Self.light()
        light.feed(.stopScanning)
        #expect(light.deadlines.isEmpty)
        #expect(light.steps == [.endScan, .announceAgain])
    }

    /// A restart sooner than `partHold` after a change of the parts
    /// announces the change's part again, so that every peer's next scan start reads it;
    /// a later one moves the parts on.
    @Test func aStrictRestartSoonAfterAChangeRepeatsItsPart() {
        var radio = Self.strict()
        radio.advance(to: .milliseconds(1000))
        radio.feed(.newParts)
        radio.feed(.changeAsked)
        radio.done(.stopScan)
        radio.done(.change)
        radio.advance(to: .milliseconds(1050))
        radio.done(.startScan)
        radio.advance(to: .milliseconds(1500))
        radio.done(.forgetApps)
        radio.done(.stopScan)
        #expect(radio.steps == [.announceAgain], "450 ms after the change: its part again")
        radio.done(.announceAgain)
        // The change's second announcement fell due in the restart's gap: it follows it.
        radio.advance(to: .milliseconds(1550))
        radio.done(.startScan)
        radio.done(.stopScan)
        radio.done(.announceAgain)
        radio.advance(to: .milliseconds(1600))
        radio.done(.startScan)
        #expect(radio.deadlines == [.milliseconds(3050)])
        radio.advance(to: .milliseconds(3050))
        radio.done(.forgetApps)
        radio.done(.stopScan)
        #expect(radio.steps == [.announceNextPart], "2 s after it: the next part")
    }
}

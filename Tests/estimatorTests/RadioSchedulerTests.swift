import RadioScheduling
import Testing

/// The radio's schedulers on their own, without I/O: events in, actions
/// out, on the test clock. `Driver` keeps the timers they arm as deadlines
/// and fires each when the clock reaches it, so every timer is seen armed
/// at its deadline, and nothing happens before it. Each timer of the
/// schedule has a test here that fails without it.
@Suite struct RadioSchedulerTests {
    /// Runs a scheduler as `RadioExecutor` does, with steps recorded
    /// instead of performed: a test answers them with `done` or `failed`.
    struct Driver {
        var scheduler: any RadioScheduler
        let clock = ManualClock()
        /// The armed timers and their deadlines.
        var timers: [RadioTimer: Duration] = [:]
        /// The steps asked for and not yet answered, in order.
        var steps: [RadioStep] = []
        /// How the changes asked for ended (failed or not).
        var changes: [Bool] = []
        var halted = false

        mutating func feed(_ event: ScheduleEvent) {
            for action in scheduler.take(event, at: clock.elapsed) {
                switch action {
                case .perform(let step): steps.append(step)
                case let .arm(timer, deadline): timers[timer] = deadline
                case .cancel(let timer): timers[timer] = nil
                case .changeDone(let failed): changes.append(failed)
                case .halt: halted = true
                }
            }
        }

        /// The deadlines armed now, soonest first.
        var deadlines: [Duration] { timers.values.sorted() }

        /// Moves the clock to `time` and fires every timer due by then, in order.
        mutating func advance(to time: Duration) {
            while let (timer, deadline) = timers.filter({ $0.value <= time }).min(by: { $0.value < $1.value }) {
                clock.advance(by: deadline - clock.elapsed)
                timers[timer] = nil
                feed(.fired(timer))
            }
            clock.advance(by: time - clock.elapsed)
        }

        /// Answers a light restart's steps, in their order.
        mutating func doneLightRestart() {
            done(.forgetApps)
            done(.stopScan)
            done(.startScan)
        }

        /// Answers the oldest step asked for, which must be `step`.
        mutating func done(_ step: RadioStep, failed: Bool = false) {
            #expect(steps.first == step)
            guard steps.first == step else { return }
            steps.removeFirst()
            feed(failed ? .failed(step) : .done(step))
        }
    }

    static func schedule(jitter: Duration = .zero) -> RadioSchedule {
        var schedule = RadioSchedule.standard
        schedule.jitter = jitter
        return schedule
    }

    static let lowest: RadioSchedule.Draw = { $0.lowerBound }
    static let highest: RadioSchedule.Draw = { $0.upperBound }

    static func strict(_ schedule: RadioSchedule = Self.schedule(), random: @escaping RadioSchedule.Draw = Self.highest) -> Driver {
        var driver = Driver(scheduler: StrictScheduler(schedule: schedule, random: random))
        driver.feed(.scanStarted)
        return driver
    }

    static func light(_ schedule: RadioSchedule = Self.schedule(), random: @escaping RadioSchedule.Draw = Self.highest) -> Driver {
        var driver = Driver(scheduler: LightScheduler(schedule: schedule, random: random))
        driver.feed(.scanStarted)
        return driver
    }

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
        radio.done(.announceAgain)
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
        radio.done(.announceAgain)
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

    /// A light restart: forget the app's devices, stop and start, no
    /// settle, no hold; a change goes
    /// out while scanning, and once more 0.5 s later.
    @Test func theLightScheduleRestartsTheScanAloneAndChangesWhileScanning() {
        var radio = Self.light()
        radio.advance(to: .milliseconds(1400))
        radio.feed(.heard)
        radio.advance(to: .milliseconds(1500))
        radio.doneLightRestart()
        #expect(radio.deadlines == [.milliseconds(3000)])
        radio.feed(.changeAsked)
        radio.done(.change)
        #expect(radio.changes == [false])
        #expect(radio.deadlines == [.milliseconds(1750), .milliseconds(3000)], "announced again 0.25 s on")
        radio.advance(to: .milliseconds(1749))
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(1750))
        radio.done(.announceAgain)
        #expect(radio.deadlines == [.milliseconds(3000)])
        #expect(radio.steps.isEmpty)
    }

    /// A light change asked while a restart forgets the app's devices goes
    /// out before the scan stops; one asked while the scan stops waits for
    /// it to start again, and so does an announcement falling due then: in
    /// the gap they would keep the scan off.
    @Test func aLightChangeIsNeverMadeInTheRestartsGap() {
        var radio = Self.light()
        radio.advance(to: .milliseconds(1500))
        #expect(radio.steps == [.forgetApps], "the scan is not stopped yet")
        radio.feed(.changeAsked)
        #expect(radio.steps == [.forgetApps, .change])
        radio.done(.forgetApps)
        radio.done(.change)
        #expect(radio.steps == [.stopScan])
        #expect(radio.deadlines == [.milliseconds(1750)], "announced again 0.25 s on")
        radio.advance(to: .milliseconds(1750))
        #expect(radio.steps == [.stopScan], "the announcement waits for the scan")
        radio.feed(.changeAsked)
        #expect(radio.steps == [.stopScan], "and so does a change")
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .change], "the change supersedes the announcement")
        radio.done(.startScan)
        radio.done(.change)
        #expect(radio.changes == [false, false])
        #expect(radio.deadlines == [.milliseconds(2000), .milliseconds(3250)], "the next restart counts from the start")
        radio.advance(to: .milliseconds(2000))
        radio.done(.announceAgain)
        #expect(radio.steps.isEmpty)
    }

    /// Asked to keep listening (a reveal's sealed cards on their way), the
    /// light mode's restart that falls due waits until then; the next one
    /// counts from it. The strict mode, whose cards are in clear, goes on.
    @Test func keepingListeningPutsTheLightRestartOff() {
        var radio = Self.light()
        radio.advance(to: .milliseconds(1000))
        radio.feed(.keepListening(until: .milliseconds(2500)))
        radio.feed(.keepListening(until: .milliseconds(2000)))  // a shorter wait shortens nothing
        radio.advance(to: .milliseconds(1500))
        #expect(radio.steps.isEmpty, "no restart while the cards come")
        #expect(radio.deadlines == [.milliseconds(2500)])
        radio.advance(to: .milliseconds(2499))
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(2500))
        radio.doneLightRestart()
        #expect(radio.deadlines == [.milliseconds(4000)])

        // Asked while the restart forgets the app's devices: the scan is not stopped.
        radio.advance(to: .milliseconds(4000))
        radio.feed(.keepListening(until: .milliseconds(5000)))
        radio.done(.forgetApps)
        #expect(radio.steps.isEmpty)
        #expect(radio.deadlines == [.milliseconds(5000)])

        var strict = Self.strict()
        strict.feed(.keepListening(until: .milliseconds(2500)))
        strict.advance(to: .milliseconds(1500))
        #expect(strict.steps == [.forgetApps, .stopScan], "the strict restart goes on")
    }

    /// A light change made while keeping listening (the reveal's, which
    /// puts the card on the air) is announced again 0.25 s on, with the scan
    /// left running: a peer whose restart's gap covered the first
    /// announcement hears the second.
    @Test func aLightChangeWhileKeepingListeningIsAnnouncedAgain() {
        var radio = Self.light()
        radio.advance(to: .milliseconds(1000))
        radio.feed(.changeAsked)
        radio.done(.change)
        #expect(radio.deadlines == [.milliseconds(1250), .milliseconds(1500)])
        radio.feed(.keepListening(until: .milliseconds(2500)))
        radio.feed(.changeAsked)
        #expect(radio.deadlines == [.milliseconds(1500)], "the change supersedes the announcement due")
        radio.done(.change)
        #expect(radio.changes == [false, false])
        #expect(radio.deadlines == [.milliseconds(1250), .milliseconds(1500)])
        radio.advance(to: .milliseconds(1250))
        #expect(radio.steps == [.announceAgain], "the second announcement, the scan on")
        radio.done(.announceAgain)
        radio.advance(to: .milliseconds(1500))
        #expect(radio.steps.isEmpty, "no restart while the cards come")
        #expect(radio.deadlines == [.milliseconds(2500)])
    }

    /// Asked to look again, the light mode does nothing: its own restarts
    /// bring a quiet peer, and a restart at each tick would deafen it.
    @Test func lookingAgainLeavesTheLightScanAlone() {
        var radio = Self.light()
        radio.advance(to: .milliseconds(300))
        radio.feed(.lookAgain)
        #expect(radio.steps.isEmpty)
        #expect(radio.deadlines == [.milliseconds(1500)])
        radio.advance(to: .milliseconds(1499))
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(1500))
        radio.doneLightRestart()
        #expect(radio.deadlines == [.milliseconds(3000)])
    }

    /// While the advertisement's parts take turns, each light restart ends
    /// with an announcement, made once the scan is on again, which puts the
    /// next part on the air; a change due then is that announcement (its
    /// new parts start from the first), and so is a second announcement
    /// due. With one part, a restart leaves the advertisement alone.
    @Test func aLightRestartMovesThePartsOnWhileTheyTakeTurns() {
        var radio = Self.light()
        radio.feed(.rotates(true))
        #expect(radio.steps.isEmpty && radio.deadlines == [.milliseconds(1500)], "told, nothing to do yet")
        radio.advance(to: .milliseconds(1500))
        radio.done(.forgetApps)
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .announceAgain], "the scan first, then the next part")
        radio.done(.startScan)
        radio.done(.announceAgain)
        #expect(radio.deadlines == [.milliseconds(3000)])
        #expect(radio.steps.isEmpty)

        // A change (new parts) asked while the restart stops the scan.
        radio.advance(to: .milliseconds(3000))
        radio.done(.forgetApps)
        radio.feed(.rotates(true))
        radio.feed(.changeAsked)
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .change], "the change is the restart's announcement")
        radio.done(.startScan)
        radio.done(.change)
        #expect(radio.changes == [false])
        #expect(radio.deadlines == [.milliseconds(3250), .milliseconds(4500)])

        // Its second announcement moves the parts on too; so does the next restart.
        radio.advance(to: .milliseconds(3249))
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(3250))
        radio.done(.announceAgain)
        radio.advance(to: .milliseconds(4500))
        radio.done(.forgetApps)
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .announceAgain])
        radio.done(.startScan)
        radio.done(.announceAgain)

        // One part: the restart is the scan's alone again.
        radio.feed(.rotates(false))
        radio.advance(to: .milliseconds(6000))
        radio.doneLightRestart()
        #expect(radio.steps.isEmpty)
        #expect(radio.deadlines == [.milliseconds(7500)])

        // The strict mode announces at every restart anyway.
        var strict = Self.strict()
        strict.feed(.rotates(true))
        #expect(strict.steps.isEmpty && strict.deadlines == [.milliseconds(1500)])
    }

    /// A second announcement due while a light restart stops the scan, with
    /// parts that take turns, is made once: it moves them on.
    @Test func aLightRestartAnnouncesOnceWhenAnAnnouncementIsDue() {
        var radio = Self.light()
        radio.feed(.rotates(true))
        radio.advance(to: .milliseconds(1400))
        radio.feed(.changeAsked)
        radio.done(.change)
        #expect(radio.deadlines == [.milliseconds(1500), .milliseconds(1650)])
        radio.advance(to: .milliseconds(1500))
        radio.done(.forgetApps)
        radio.advance(to: .milliseconds(1650))
        #expect(radio.steps == [.stopScan], "the announcement waits for the scan")
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .announceAgain])
    }
}

import BlueZ
import EstimatorKit
import RadioScheduling
import Testing

@Suite struct RadioScheduleTests {
    @Test func overridesAreMillisecondsByName() throws {
        let schedule = try RadioSchedule.parse("restart=2000, jitter=600,hold-limit=0,drop=45000,listen=0")
        #expect(schedule.restartEvery == .seconds(2))
        #expect(schedule.listenLimit == .zero && (schedule.scheduler() as? StrictScheduler)?.schedule.listenLimit == .zero)
        #expect(schedule.jitter == .milliseconds(600))
        #expect(schedule.holdLimit == .zero)
        #expect(schedule.drop == .seconds(45))
        #expect(schedule.settle == RadioSchedule.standard.settle)
        #expect((schedule.scheduler() as? StrictScheduler)?.schedule.restartEvery == .seconds(2))
        #expect(try RadioSchedule.parse("") == .standard)
        #expect(try RadioSchedule.parse("read=0").readEvery == .zero)
        #expect(RadioSchedule.standard.readEvery == .milliseconds(100))
    }

    /// A table that heard a reveal elsewhere waits `Ballot.appCatchUp` for an
    /// app user's vote, which this radio reads only at its next restart: the
    /// longest a strict restart can be in coming (the longest interval, then
    /// listening, then holding) must fit in that wait.
    @Test func theLongestGapBetweenRestartsFitsInAnAppUsersCatchUp() {
        let schedule = RadioSchedule.standard
        let longest = schedule.restartEvery + schedule.jitter + schedule.listenLimit + schedule.holdLimit
        #expect(longest == .seconds(4))
        #expect(longest < Ballot.appCatchUp, "the restart and its scan start need the rest")
    }

    @Test func theModeIsTheLeastDisruptiveTheControllerAllows() {
        let legacy = AdvertisingCapacity(supported: 5, active: 0, extended: false)
        let extended = AdvertisingCapacity(supported: 5, active: 0, extended: true)
        #expect(RadioMode.fitting(legacy) == .strict)
        #expect(RadioMode.fitting(extended) == .light)
        let strict = RadioSchedule.standard.fitted(to: legacy), light = RadioSchedule.standard.fitted(to: extended)
        #expect(strict.mode == .strict && strict.pausesScan)
        #expect(light.mode == .light && !light.pausesScan)
        // Only the mode differs: every timing is the one value's.
        #expect({ var same = light; same.mode = .strict; return same }() == strict)
        // Not yet fitted (watch without a session): strict.
        #expect(RadioSchedule.standard.mode == nil && RadioSchedule.standard.pausesScan)
    }

    /// Each mode runs its own scheduler on the one schedule (what each does
    /// is in StrictSchedulerTests and LightSchedulerTests).
    @Test func eachModeHasItsScheduler() {
        let light = RadioSchedule.standard.fitted(to: AdvertisingCapacity(supported: 5, active: 0, extended: true))
        #expect((light.scheduler() as? LightScheduler)?.schedule == light)
        let strict = RadioSchedule.standard.fitted(to: AdvertisingCapacity(supported: 5, active: 0))
        #expect((strict.scheduler() as? StrictScheduler)?.schedule == strict)
        // Not yet fitted: strict.
        #expect(RadioSchedule.standard.scheduler() is StrictScheduler)
    }

    @Test func theEnvironmentCanForceAMode() throws {
        let forced = try RadioSchedule.parse("mode=strict,restart=2000")
        #expect(forced.mode == .strict)
        #expect(forced.fitted(to: AdvertisingCapacity(supported: 5, active: 0, extended: true)).mode == .strict)
        #expect(try RadioSchedule.parse("mode=light").fitted(to: AdvertisingCapacity(supported: 5, active: 0)).mode == .light)
        let why = RadioMode.strict.reason(adapter: "hci0", capacity: AdvertisingCapacity(supported: 5, active: 0,
                                                                                        extended: true), forced: true)
        #expect(why == "chosen by ESTIMATOR_SCHEDULE; hci0 has extended advertising (its set takes a new random "
                + "address while scanning)")
    }

    @Test(arguments: ["mode=fast", "mode", "restart", "restart=", "restart=1.5", "resart=1500", "settle=-1", "tick=0", "jitter=1500",
                      "restart=600001"])
    func aBadOverrideIsAUsageError(_ text: String) {
        let error = #expect(throws: UserError.self) { try RadioSchedule.parse(text) }
        #expect(error?.code == .usage)
        #expect(error?.sentence.contains("ESTIMATOR_SCHEDULE") == true)
    }
}

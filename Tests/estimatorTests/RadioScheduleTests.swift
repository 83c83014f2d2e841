import BlueZ
import Testing

@testable import estimator

@Suite struct RadioScheduleTests {
    @Test func overridesAreMillisecondsByName() throws {
        let schedule = try RadioSchedule.parse("restart=2000, jitter=600,hold-limit=0,drop=45000,listen=0")
        #expect(schedule.restartEvery == .seconds(2))
        #expect(schedule.listenLimit == .zero && schedule.scan.listenLimit == .zero)
        #expect(schedule.jitter == .milliseconds(600))
        #expect(schedule.holdLimit == .zero)
        #expect(schedule.drop == .seconds(45))
        #expect(schedule.settle == RadioSchedule.standard.settle)
        #expect(schedule.scan.restartEvery == .seconds(2))
        #expect(try RadioSchedule.parse("") == .standard)
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

    @Test func theLightScanRestartsWithoutSettleOrHold() {
        let light = RadioSchedule.standard.fitted(to: AdvertisingCapacity(supported: 5, active: 0, extended: true))
        #expect(light.scan == ScanSchedule(restartEvery: .milliseconds(1500), jitter: .milliseconds(500)))
        let strict = RadioSchedule.standard.fitted(to: AdvertisingCapacity(supported: 5, active: 0))
        #expect(strict.scan == ScanSchedule(restartEvery: .milliseconds(1500), jitter: .milliseconds(500),
                                            settle: .milliseconds(50), hold: .milliseconds(250),
                                            backoff: .milliseconds(250), holdLimit: .seconds(1),
                                            listenLimit: .seconds(1)))
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

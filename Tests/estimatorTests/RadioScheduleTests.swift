import Testing

@testable import estimator

@Suite struct RadioScheduleTests {
    @Test func overridesAreMillisecondsByName() throws {
        let schedule = try RadioSchedule.parse("restart=2000, jitter=600,hold-limit=0,drop=45000")
        #expect(schedule.restartEvery == .seconds(2))
        #expect(schedule.jitter == .milliseconds(600))
        #expect(schedule.holdLimit == .zero)
        #expect(schedule.drop == .seconds(45))
        #expect(schedule.settle == RadioSchedule.standard.settle)
        #expect(schedule.scan.restartEvery == .seconds(2))
        #expect(try RadioSchedule.parse("") == .standard)
    }

    @Test(arguments: ["restart", "restart=", "restart=1.5", "resart=1500", "settle=-1", "tick=0", "jitter=1500",
                      "restart=600001"])
    func aBadOverrideIsAUsageError(_ text: String) {
        let error = #expect(throws: UserError.self) { try RadioSchedule.parse(text) }
        #expect(error?.code == .usage)
        #expect(error?.sentence.contains("ESTIMATOR_SCHEDULE") == true)
    }
}

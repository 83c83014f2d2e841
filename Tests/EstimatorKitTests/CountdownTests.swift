import EstimatorKit
import Testing

@Suite struct CountdownTests {
    @Test(arguments: [("90s", 90), ("2m", 120), ("1m30s", 90), (" 1M5S ", 65), ("1s", 1), ("60m", 3600), ("0m45s", 45),
                      ("3600s", 3600)])
    func minutesAndSecondsAreALength(_ typed: String, _ seconds: Int) throws {
        #expect(try Countdown(parsing: typed).seconds == seconds)
    }

    @Test(arguments: ["", "90", "2", "m", "s", "1h", "2 m", "1s30m", "1m1m", "30s1m", "1.5m", "-1m", "0s", "0m", "61m",
                      "3601s", "99999s", "1m30", "m30s", "２m"])
    func anythingElseIsRefusedWithWhatATimerIs(_ typed: String) {
        #expect(throws: CountdownParseError(input: typed)) { try Countdown(parsing: typed) }
    }

    @Test func theSentenceSaysWhatATimerIs() {
        #expect(CountdownParseError(input: "2").description
                == "'2' is not a timer; a timer is minutes and/or seconds such as 90s, 2m or 1m30s, from 1s to 60m.")
        #expect(CountdownParseError(input: "1m\u{1B}[2J").description.contains("\u{1B}") == false)
    }

    @Test func itIsWrittenAsItIsTyped() throws {
        #expect(try Countdown(parsing: "90s").description == "1m30s")
        #expect(try Countdown(parsing: "120s").description == "2m")
        #expect(try Countdown(parsing: "45s").description == "45s")
        #expect(Countdown(seconds: 0) == nil && Countdown(seconds: 3601) == nil)
    }

    @Test func whatIsLeftIsAClockRoundedUpToTheSecond() {
        #expect(Countdown.clock(.seconds(120)) == "2:00")
        #expect(Countdown.clock(.milliseconds(119_001)) == "2:00")
        #expect(Countdown.clock(.seconds(119)) == "1:59")
        #expect(Countdown.clock(.seconds(65)) == "1:05")
        #expect(Countdown.clock(.milliseconds(1)) == "0:01")
        #expect(Countdown.clock(.zero) == "0:00")
        #expect(Countdown.clock(.seconds(-3)) == "0:00", "run out, the reveal not heard yet")
        #expect(Countdown.clock(.seconds(3600)) == "60:00")
    }
}

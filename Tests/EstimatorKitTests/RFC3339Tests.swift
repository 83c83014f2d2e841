import EstimatorKit
import Foundation
import PropertyBased
import Testing

@Suite struct RFC3339Tests {
    @Test(arguments: [
        (0, "1970-01-01T00:00:00.000Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (1_795_319_506_722, "2026-11-22T03:51:46.722Z"),
        (4_107_542_399_999, "2100-02-28T23:59:59.999Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (7_258_118_399_000, "2199-12-31T23:59:59.000Z"),
    ] as [(Int64, String)])
    func knownInstants(millis: Int64, expected: String) {
        let time = Timestamp(nanosecondsSince1970: millis * 1_000_000)
        #expect(RFC3339.string(time) == expected)
        #expect(RFC3339.timestamp(expected) == time)
    }

    @Test func subMillisecondsAreCutNotRounded() {
        #expect(RFC3339.string(Timestamp(nanosecondsSince1970: 999_999)) == "1970-01-01T00:00:00.000Z")
    }

    /// Against Foundation's formatter, over instants spread across 1970–2199.
    @Test func agreesWithFoundation() async {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        await propertyCheck(count: 2000, input: Gen.int64(in: 0...7_258_118_400_000)) { millis in
            let ours = RFC3339.string(Timestamp(nanosecondsSince1970: millis * 1_000_000))
            #expect(ours == formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000)))
        }
    }

    @Test func parsingGivesBackEveryWrittenInstant() async {
        await propertyCheck(count: 2000, input: Gen.int64(in: -9_223_372_036_854...9_223_372_036_854)) { millis in
            let time = Timestamp(nanosecondsSince1970: millis * 1_000_000)
            #expect(RFC3339.timestamp(RFC3339.string(time)) == time)
        }
    }

    @Test(arguments: [
        ("2026-11-22T03:51:46Z", 0),
        ("2026-11-22T03:51:46.7Z", 700_000_000),
        ("2026-11-22T03:51:46.123456789Z", 123_456_789),
        ("2026-11-22T03:51:46.1234567891234Z", 123_456_789),
    ] as [(String, Int64)])
    func fractionsOfAnyLengthAreReadToTheNanosecond(text: String, nanoseconds: Int64) {
        #expect(RFC3339.timestamp(text) == Timestamp(secondsSince1970: 1_795_319_506, nanoseconds: nanoseconds))
    }

    @Test(arguments: [
        "", "2026-11-22", "2026-11-22T03:51:46.722", "2026-11-22T03:51:46.722+01:00", "2026-11-22 03:51:46.722Z",
        "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-02-29T00:00:00Z", "2100-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T03:60:00Z", "2026-11-22T03:51:60Z",
        "2026-11-22T03:51:46.Z", "2026-11-22T03:51:46,722Z", "2026-11-22T03:51:46.7a2Z", "+026-11-22T03:51:46Z",
        "2026-1-022T03:51:46Z", "２０２６-11-22T03:51:46Z", "2026-11-22T03:51:46.722ZZ",
        // Real dates a Timestamp (nanoseconds in an Int64) cannot hold.
        "9999-12-31T23:59:59.999Z", "0000-01-01T00:00:00Z", "2262-04-11T23:47:16.854775808Z",
        "1677-09-21T00:12:43.145224191Z",
    ])
    func anythingElseIsNotATime(text: String) {
        #expect(RFC3339.timestamp(text) == nil)
    }

    @Test func theEdgesOfATimestampAreInstants() {
        #expect(RFC3339.timestamp("2262-04-11T23:47:16.854775807Z") == Timestamp(nanosecondsSince1970: .max))
        #expect(RFC3339.timestamp("1677-09-21T00:12:43.145224192Z") == Timestamp(nanosecondsSince1970: .min))
    }

    @Test func leapDaysAreDates() {
        #expect(RFC3339.timestamp("2000-02-29T00:00:00Z") == Timestamp(secondsSince1970: 951_782_400))
        #expect(RFC3339.timestamp("2024-02-29T12:00:00Z") != nil)
    }
}

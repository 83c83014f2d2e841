import EstimatorKit
import Testing

@Suite struct ChannelTests {
    @Test func everyChannelHasTwoUppercaseHexDigitsOnTheAir() {
        #expect(Channel(rawValue: 0).hex == "00")
        #expect(Channel(rawValue: 1).hex == "01")
        #expect(Channel(rawValue: 0x0D).hex == "0D")
        #expect(Channel(rawValue: 255).hex == "FF")
        #expect((0...255).map { Channel(rawValue: UInt8($0)).hex }.allSatisfy {
            $0.count == 2 && $0 == $0.uppercased()
        })
    }

    @Test func theDefaultIsTheAppsChannelZero() {
        #expect(Channel.default.hex == "00")
    }

    @Test(arguments: [("0", 0), ("1", 1), (" 42 ", 42), ("255", 255), ("007", 7)])
    func parsesWhatPeopleType(_ text: String, _ value: UInt8) throws {
        let channel = try Channel(parsing: text)
        #expect(channel.rawValue == value)
        #expect(channel.description == String(value))
    }

    @Test(arguments: ["", " ", "256", "-1", "+1", "0x10", "FF", "1.5", "one", "١"])
    func anythingElseIsAnError(_ text: String) {
        #expect(throws: ChannelParseError(input: text)) { try Channel(parsing: text) }
        #expect(ChannelParseError(input: text).description
            == "'\(text)' is not a channel; a channel is a whole number from 0 to 255.")
    }
}

import Testing

/// The command line's readings of a channel, a deck and an adapter, through
/// the built binary: the readings live in the executable, which tests do not
/// import.
@Suite struct CommandLineValueTests {
    @Test(arguments: ["256", "-1", "abc", "", "1.5", "+1", "٣"])
    func badChannelSaysWhatAChannelIs(text: String) throws {
        let result = try EstimatorProcess.run(arguments: ["packet", "encode", "--channel", text, "--card", "5", "--name", "Ann"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("a channel is a whole number from 0 to 255."))
    }

    @Test func aDeckTypedOnTheCommandLineIsRefusedWithItsReason() throws {
        let result = try EstimatorProcess.run("join", "--deck", "1,200")
        #expect(result.status == 64)
        #expect(result.stderr.contains(
            "'200' is not an integer from 0 to 126; a deck is app, fibonacci, powers, tshirt or integers from 0 to 126 such as 1,2,4,8."))
    }

    @Test(arguments: ["hci", "hcix", "../hci0", "hci0/..", "HCI0", "hci123456", "AA:BB:CC:DD:EE", "AA:BB:CC:DD:EE:FG", "AABBCCDDEEFF"])
    func adaptersAreNamesOrAddresses(bad: String) throws {
        let result = try EstimatorProcess.run("status", "--adapter", bad)
        #expect(result.status == 64)
        #expect(result.stderr.contains("an adapter is a name, like hci0, or an address"))
    }
}

import EstimatorKit
import SessionDaemon
import Testing

/// `join`'s relay options: remembered without the password, dropped with
/// `--relay none`, checked before anything starts.
@Suite struct RelaySettingsTests {
    let account = Account(login: "sy", fullName: "전수열", home: "/home/sy")

    func settings(adapter: String? = nil, remembered: Config = Config(), _ relay: RelayOptions) async throws(UserError) -> JoinSettings {
        try await JoinSettings(channel: nil, name: nil, adapter: adapter, remembered: remembered, fallbackAdapter: "hci0",
                               account: account, relay: relay)
    }

    @Test func rememberedWithoutAPasswordAndDroppedWithNone() async throws {
        let typed = try await settings(RelayOptions(url: "mqtts://b.example:8883/team", user: "ann",
                                              passwordFile: "/home/sy/.relay-pass", caFile: "/etc/ca.pem"))
        let directory = try TemporaryDirectory.make()
        try typed.config().save(to: directory + "/config.json")
        let saved = try Config.load(from: directory + "/config.json")
        #expect(saved.relay == typed.relay)
        #expect(try await settings(remembered: saved, RelayOptions()).relay?.url == "mqtts://b.example:8883/team")
        #expect(try await settings(remembered: saved, RelayOptions(user: "bob")).relay?.user == "bob", "typed beats remembered")
        #expect(try await settings(remembered: saved, RelayOptions(url: "none")).relay == nil)
        #expect(try await settings(remembered: saved, RelayOptions(url: "none")).config().relay == nil, "none is forgotten")
    }

    @Test func relativeFilesBecomeAbsolute() async throws {
        let relay = try #require(try await settings(RelayOptions(url: "mqtts://b/r", passwordFile: "pass")).relay)
        #expect(relay.passwordFile?.hasPrefix("/") == true && relay.passwordFile?.hasSuffix("/pass") == true)
    }

    @Test func plainMQTTIsWarnedAbout() async throws {
        #expect(try await settings(RelayOptions(url: "mqtt://10.0.0.2/r")).warnings.contains { $0.contains("unencrypted") })
        #expect(try await settings(RelayOptions(url: "mqtts://b/r")).warnings.isEmpty)
    }

    @Test(arguments: [
        (RelayOptions(url: "https://b/r"), "none"),
        (RelayOptions(url: "mqtts://b/r x"), "hci0"),
        (RelayOptions(user: "ann"), "hci0"),
        (RelayOptions(), "none"),
        (RelayOptions(url: "mqtts://b/r", user: "a\u{1B}b"), "hci0"),
    ])
    func mistakesAreOneSentenceAndExit64(options: RelayOptions, adapter: String) async {
        do {
            _ = try await settings(adapter: adapter, options)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .usage && error.sentence.hasSuffix("."))
        }
    }
}

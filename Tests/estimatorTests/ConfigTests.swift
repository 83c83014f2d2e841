import EstimatorKit
import Glibc
import SessionDaemon
import Testing

@Suite struct ConfigTests {
    let account = Account(login: "sy", fullName: "전수열", home: "/home/sy")

    func settings(channel: Channel? = nil, name: String? = nil, adapter: String? = nil,
                  remembered: Config = Config(), account: Account? = nil) async throws(UserError) -> JoinSettings {
        try await JoinSettings(channel: channel, name: name, adapter: adapter, remembered: remembered,
                               fallbackAdapter: "hci4", account: account ?? self.account)
    }

    @Test func savesAndLoadsAtomically() throws {
        let directory = try TemporaryDirectory.make()
        let path = directory + "/deep/er/config.json"
        let config = Config(channel: Channel(rawValue: 42), name: try PersonName.parse("Zoë \"Z\"").name, adapter: "hci3")
        try config.save(to: path)
        #expect(try Config.load(from: path) == config)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(access(path + ".tmp-\(getpid())", F_OK) != 0, "no temporary left")
    }

    @Test func missingIsEmptyAndDamagedIsAnError() throws {
        let directory = try TemporaryDirectory.make()
        #expect(try Config.load(from: directory + "/none.json") == Config())
        let path = directory + "/config.json"
        for damaged in ["{", "[]"] {
            try Self.write(damaged, to: path)
            #expect(throws: UserError(.data, "\(path) is not a JSON object of settings; edit it, or run `estimator config --reset all` to forget every setting.")) {
                try Config.load(from: path)
            }
        }
        for (damaged, field) in [(#"{"channel":256}"#, "channel"), (#"{"name":""}"#, "name"), (#"{"name":"a\u001bb"}"#, "name"),
                                 (#"{"adapter":"../x"}"#, "adapter"), (#"{"role":"boss"}"#, "role"),
                                 (#"{"relay":"mqtt://b/r","relayCA":7}"#, "relayCA"), (#"{"relay":"https://b/r"}"#, "relay")] {
            try Self.write(damaged, to: path)
            #expect(throws: UserError.self) { try Config.load(from: path) }
            do { _ = try Config.load(from: path) } catch {
                #expect(error.code == .data)
                #expect(error.description.hasPrefix("In \(path), \(field) must be "), "\(error.description)")
                #expect(error.description.hasSuffix("; edit it or run `estimator config --reset \(field)`."), "\(error.description)")
            }
        }
    }

    @Test func resetForgetsOneSettingAsWrittenOrTheWholeFile() throws {
        let directory = try TemporaryDirectory.make()
        let path = directory + "/config.json"
        try Self.write(#"{"channel":999,"open":true,"relay":"mqtt://b/r","relayUser":"ann","relayCA":"/ca.crt"}"#, to: path)
        #expect(try Config.reset(.channel, at: path), "a damaged value is forgotten too")
        #expect(try Config.load(from: path).openCards == true)
        #expect(try Config.reset(.channel, at: path) == false, "nothing left to forget")
        #expect(try Config.reset(.relay, at: path))
        #expect(try Config.load(from: path) == Config(openCards: true), "the relay goes with its user and files")
        #expect(try Config.reset(nil, at: path))
        #expect(access(path, F_OK) != 0)
        #expect(try Config.reset(nil, at: path) == false)
    }

    static func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
    }

    @Test func typedBeatsRememberedBeatsDefault() async throws {
        let remembered = Config(channel: Channel(rawValue: 7), name: try PersonName.parse("Carol").name, adapter: "hci1")
        #expect(try await settings(remembered: remembered).config() == remembered)
        let typed = try await settings(channel: Channel(rawValue: 3), name: "Dave", adapter: "hci2", remembered: remembered)
        #expect(typed.config() == Config(channel: Channel(rawValue: 3), name: try PersonName.parse("Dave").name, adapter: "hci2"))
        let fresh = try await settings()
        #expect(fresh.channel == nil, "no channel remembered: a room is found")
        #expect(fresh.name.text == "전수열", "the account's full name")
        #expect(fresh.adapter == "hci4", "the adapter join found")
    }

    /// docs/PROTOCOL.md, Finding a room: a join with no channel typed or
    /// remembered finds one, and remembers the one it found.
    @Test func noChannelRememberedFindsARoomAndRemembersTheOneFound() async throws {
        let fresh = try await settings()
        #expect(fresh.channel == nil)
        #expect(fresh.config().channel == nil, "nothing found yet: nothing to remember")
        #expect(fresh.config(joined: Channel(rawValue: 37)).channel == Channel(rawValue: 37), "the room found is remembered")
        let remembered = try await settings(remembered: Config(channel: Channel(rawValue: 9)))
        #expect(remembered.channel == Channel(rawValue: 9), "a remembered channel is used as before")
        #expect(try await settings(channel: .default).channel == .default, "channel 0 stays reachable when typed")
    }

    @Test func aRelayOnlySessionWithoutAChannelIsAUsageErrorNamingTheFix() async throws {
        let relay = RelayOptions(url: "mqtts://broker.example:8883/team")
        do {
            _ = try await JoinSettings(channel: nil, name: nil, adapter: "none", remembered: Config(), fallbackAdapter: "hci4",
                                       account: account, relay: relay)
            Issue.record("no error")
        } catch {
            #expect(error.code == .usage)
            #expect(error.description.contains("--channel N"), "\(error.description)")
        }
        let typed = try await JoinSettings(channel: Channel(rawValue: 37), name: nil, adapter: "none", remembered: Config(),
                                           fallbackAdapter: "hci4", account: account, relay: relay)
        #expect(typed.channel == Channel(rawValue: 37))
    }

    @Test func aRangeIsRememberedOnceChosen() async throws {
        let directory = try TemporaryDirectory.make()
        let path = directory + "/config.json"
        var config = Config(channel: Channel(rawValue: 1), name: try PersonName.parse("Ann").name, adapter: "hci0")
        config.range = .hall
        try config.save(to: path)
        #expect(try Config.load(from: path).range == .hall)
        #expect(try await settings().config().range == nil, "never chosen: not written")
        let typed = try await JoinSettings(channel: nil, name: nil, adapter: nil, range: .near, remembered: config,
                                           fallbackAdapter: "hci4", account: account)
        #expect(typed.config().range == .near, "typed beats remembered")
        #expect(try await settings(remembered: config).range == .hall, "remembered when not typed")
        try Self.write(#"{"range":"far"}"#, to: path)
        #expect(throws: UserError(.data, "In \(path), range must be \"near\", \"room\" or \"hall\"; edit it or run `estimator config --reset range`.")) { try Config.load(from: path) }
    }

    @Test func aDeckIsRememberedOnceChosen() async throws {
        let directory = try TemporaryDirectory.make()
        let path = directory + "/config.json"
        let custom = try Deck(parsing: "1,2,4,8")
        var config = Config(channel: Channel(rawValue: 1), name: try PersonName.parse("Ann").name, adapter: "hci0")
        config.deck = custom
        try config.save(to: path)
        #expect(try Config.load(from: path).deck == custom)

        #expect(try await settings().config().deck == nil, "never chosen: not written")
        let typed = try await JoinSettings(channel: nil, name: nil, adapter: nil, deck: .fibonacci, remembered: config,
                                           fallbackAdapter: "hci4", account: account)
        #expect(typed.config().deck == .fibonacci, "typed beats remembered")
        #expect(try await settings(remembered: config).deck == custom, "remembered when not typed")

        for damaged in [#"{"deck":"1,x"}"#, #"{"deck":7}"#] {
            try Self.write(damaged, to: path)
            #expect(throws: UserError(.data, "In \(path), deck must be a string naming a deck: \"app\", \"fibonacci\", \"powers\", \"tshirt\" or integers such as \"1,2,4,8\"; edit it or run `estimator config --reset deck`.")) { try Config.load(from: path) }
        }
    }

    @Test func quietIsRememberedOnceChosen() async throws {
        let directory = try TemporaryDirectory.make()
        let path = directory + "/config.json"
        var config = Config(channel: Channel(rawValue: 1), name: try PersonName.parse("Ann").name, adapter: "hci0")
        config.quiet = true
        try config.save(to: path)
        #expect(try Config.load(from: path).quiet == true)

        #expect(try await settings().config().quiet == nil, "never chosen: not written")
        #expect(try await settings(remembered: config).config().quiet == true, "remembered when not typed")
        let typed = try await JoinSettings(channel: nil, name: nil, adapter: nil, quiet: false, remembered: config,
                                           fallbackAdapter: "hci4", account: account)
        #expect(typed.config().quiet == false, "--no-quiet beats remembered")

        try Self.write(#"{"quiet":"yes"}"#, to: path)
        #expect(throws: UserError(.data, "In \(path), quiet must be true or false; edit it or run `estimator config --reset quiet`.")) { try Config.load(from: path) }
    }

    @Test func loginWhenThereIsNoFullName() async throws {
        #expect(try await settings(account: Account(login: "sy", fullName: "", home: "/")).name.text == "sy")
        await #expect(throws: UserError.self) { try await settings(account: Account(login: "", fullName: "", home: "/")) }
    }

    @Test(arguments: ["", "  ", "a\u{7}b", "a\u{1B}[31mb", "x\u{202E}y", String(repeating: "é", count: 2100)])
    func badNameIsData(text: String) async {
        await #expect {
            try await settings(name: text)
        } throws: { error in
            (error as? UserError)?.code == .data
        }
    }

    @Test func aCutNameDropsTheSpaceItEndsWith() async throws {
        let long = try await settings(name: "Christopher Robin")
        #expect(long.name.text == "Christopher")
        #expect(long.warnings == ["'Christopher Robin' is longer than 12 bytes; it was shortened to 'Christopher'."])
    }
}

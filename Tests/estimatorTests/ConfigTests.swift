import ArgumentParser
import EstimatorKit
import Glibc
import Testing

@testable import estimator

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
        for damaged in ["{", "[]", #"{"channel":256}"#, #"{"name":""}"#, #"{"name":"a\u001bb"}"#, #"{"adapter":"../x"}"#] {
            let path = directory + "/config.json"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            _ = damaged.withCString { write(fd, $0, strlen($0)) }
            close(fd)
            #expect(throws: UserError(.data, "\(path) is damaged; fix it or delete it and join again.")) {
                try Config.load(from: path)
            }
        }
    }

    @Test func typedBeatsRememberedBeatsDefault() async throws {
        let remembered = Config(channel: Channel(rawValue: 7), name: try PersonName.parse("Carol").name, adapter: "hci1")
        #expect(try await settings(remembered: remembered).config == remembered)
        let typed = try await settings(channel: Channel(rawValue: 3), name: "Dave", adapter: "hci2", remembered: remembered)
        #expect(typed.config == Config(channel: Channel(rawValue: 3), name: try PersonName.parse("Dave").name, adapter: "hci2"))
        let fresh = try await settings()
        #expect(fresh.channel == .default)
        #expect(fresh.name.text == "전수열", "the account's full name")
        #expect(fresh.adapter == "hci4", "the adapter join found")
    }

    @Test func aDeckIsRememberedOnceChosen() async throws {
        let directory = try TemporaryDirectory.make()
        let path = directory + "/config.json"
        let custom = try Deck(parsing: "1,2,4,8")
        var config = Config(channel: Channel(rawValue: 1), name: try PersonName.parse("Ann").name, adapter: "hci0")
        config.deck = custom
        try config.save(to: path)
        #expect(try Config.load(from: path).deck == custom)

        #expect(try await settings().config.deck == nil, "never chosen: not written")
        let typed = try await JoinSettings(channel: nil, name: nil, adapter: nil, deck: .fibonacci, remembered: config,
                                           fallbackAdapter: "hci4", account: account)
        #expect(typed.config.deck == .fibonacci, "typed beats remembered")
        #expect(try await settings(remembered: config).deck == custom, "remembered when not typed")

        for damaged in [#"{"deck":"1,x"}"#, #"{"deck":7}"#] {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            _ = damaged.withCString { write(fd, $0, strlen($0)) }
            close(fd)
            #expect(throws: UserError(.data, "\(path) is damaged; fix it or delete it and join again.")) { try Config.load(from: path) }
        }
    }

    @Test func quietIsRememberedOnceChosen() async throws {
        let directory = try TemporaryDirectory.make()
        let path = directory + "/config.json"
        var config = Config(channel: Channel(rawValue: 1), name: try PersonName.parse("Ann").name, adapter: "hci0")
        config.quiet = true
        try config.save(to: path)
        #expect(try Config.load(from: path).quiet == true)

        #expect(try await settings().config.quiet == nil, "never chosen: not written")
        #expect(try await settings(remembered: config).config.quiet == true, "remembered when not typed")
        let typed = try await JoinSettings(channel: nil, name: nil, adapter: nil, quiet: false, remembered: config,
                                           fallbackAdapter: "hci4", account: account)
        #expect(typed.config.quiet == false, "--no-quiet beats remembered")

        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = #"{"quiet":"yes"}"#.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        #expect(throws: UserError(.data, "\(path) is damaged; fix it or delete it and join again.")) { try Config.load(from: path) }
    }

    @Test func aDeckTypedOnTheCommandLineIsReadOrRefusedWithItsReason() throws {
        #expect(try Deck.argument("powers") == .powers)
        #expect {
            try Deck.argument("1,200")
        } throws: { error in
            (error as? ValidationError)?.message
                == "'200' is not an integer from 0 to 126; a deck is app, fibonacci, powers, tshirt or integers from 0 to 126 such as 1,2,4,8."
        }
    }

    @Test func loginWhenThereIsNoFullName() async throws {
        #expect(try await settings(account: Account(login: "sy", fullName: "", home: "/")).name.text == "sy")
        await #expect(throws: UserError.self) { try await settings(account: Account(login: "", fullName: "", home: "/")) }
    }

    @Test(arguments: ["256", "-1", "abc", "", "1.5", "+1", "٣"])
    func badChannelSaysWhatAChannelIs(text: String) {
        #expect { try Channel.argument(text) } throws: { error in
            (error as? ValidationError)?.message == "a channel is a whole number from 0 to 255."
        }
    }

    @Test(arguments: ["", "  ", "a\u{7}b", "a\u{1B}[31mb", "x\u{202E}y", String(repeating: "é", count: 500)])
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

    @Test func adaptersAreNamesOrAddresses() throws {
        for bad in ["hci", "hcix", "../hci0", "hci0/..", "HCI0", "hci123456", "AA:BB:CC:DD:EE", "AA:BB:CC:DD:EE:FG", "AABBCCDDEEFF"] {
            #expect(throws: ValidationError.self) { try AdapterChoice.argument(bad) }
        }
        #expect(try AdapterChoice.argument("hci12") == .name("hci12"))
        #expect(try AdapterChoice.argument("aa:bb:cc:dd:ee:0f") == .address("AA:BB:CC:DD:EE:0F"))
    }
}

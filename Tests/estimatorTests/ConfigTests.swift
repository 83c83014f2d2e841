import EstimatorKit
import Glibc
import Testing

@testable import estimator

@Suite struct ConfigTests {
    let account = Account(login: "sy", fullName: "전수열", home: "/home/sy")

    func settings(channel: String? = nil, name: String? = nil, adapter: String? = nil,
                  remembered: Config = Config(), account: Account? = nil) throws(UserError) -> JoinSettings {
        try JoinSettings(channel: channel, name: name, adapter: adapter, remembered: remembered, account: account ?? self.account)
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

    @Test func typedBeatsRememberedBeatsDefault() throws {
        let remembered = Config(channel: Channel(rawValue: 7), name: try PersonName.parse("Carol").name, adapter: "hci1")
        #expect(try settings(remembered: remembered).config == remembered)
        let typed = try settings(channel: "3", name: "Dave", adapter: "hci2", remembered: remembered)
        #expect(typed.config == Config(channel: Channel(rawValue: 3), name: try PersonName.parse("Dave").name, adapter: "hci2"))
        let fresh = try settings()
        #expect(fresh.channel == .default)
        #expect(fresh.name.text == "전수열", "the account's full name")
        #expect(fresh.adapter == "hci0")
    }

    @Test func loginWhenThereIsNoFullName() throws {
        #expect(try settings(account: Account(login: "sy", fullName: "", home: "/")).name.text == "sy")
        #expect(throws: UserError.self) { try settings(account: Account(login: "", fullName: "", home: "/")) }
    }

    @Test(arguments: ["256", "-1", "abc", "", "1.5", "+1", "٣"])
    func badChannelIsUsage(text: String) {
        #expect(throws: UserError(.usage, "'\(text)' is not a channel; a channel is a whole number from 0 to 255.")) {
            try settings(channel: text)
        }
    }

    @Test(arguments: ["", "  ", "a\u{7}b", "a\u{1B}[31mb", "x\u{202E}y", String(repeating: "é", count: 500)])
    func badNameIsData(text: String) {
        #expect {
            try settings(name: text)
        } throws: { error in
            (error as? UserError)?.code == .data
        }
    }

    @Test func longNameIsShortenedWithAWarning() throws {
        let long = try settings(name: "Christopher Robin")
        #expect(long.name.text == "Christopher ")
        #expect(long.warnings.count == 1)
    }

    @Test func adapterNamesAreChecked() {
        for bad in ["hci", "hcix", "../hci0", "hci0/..", "HCI0", "hci123456"] {
            #expect(throws: UserError.self) { try settings(adapter: bad) }
        }
        #expect(throws: Never.self) { try settings(adapter: "hci12") }
    }
}

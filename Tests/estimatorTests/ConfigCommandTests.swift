import DBusTestSupport
import Foundation
import Testing

/// `estimator config` and what remembering says, through the built binary
/// in XDG directories of its own.
@Suite struct ConfigCommandTests {
    let root: String
    init() throws { root = try XDGHome.make() }

    var file: String { "\(root)/config/estimator/config.json" }

    func run(_ arguments: String...) throws -> EstimatorProcess.Result {
        try EstimatorProcess.run(arguments: arguments, environment: XDGHome.environment(root: root))
    }

    func write(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: "\(root)/config/estimator", withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
    }

    @Test func showsEachSettingAndWhereItComesFrom() throws {
        let fresh = try run("config")
        #expect(fresh.status == 0, "\(fresh.stderr)")
        let freshRows = fresh.stdout.split(separator: "\n")
        for setting in ["channel", "name", "adapter", "role", "deck", "open", "quiet", "range", "relay", "relayUser",
                        "relayPasswordFile", "relayCA"] {
            #expect(freshRows.contains { $0.hasPrefix(setting + " ") && $0.contains(" default ") }, "\(setting): \(fresh.stdout)")
        }
        #expect(freshRows.contains("channel            default     none: join finds a room nearby"), "\(fresh.stdout)")
        #expect(fresh.stdout.contains("Nothing is remembered yet; join and watch write \(file)."), "\(fresh.stdout)")
        #expect(fresh.stdout.contains("it comes from ESTIMATOR_RELAY_PASSWORD, else from relayPasswordFile"))

        try write(#"{"channel":3,"open":true,"range":"hall","relay":"mqtts://b.example/room","relayUser":"ann","relayPasswordFile":"/p"}"#)
        let shown = try run("config")
        #expect(shown.status == 0, "\(shown.stderr)")
        let rows = shown.stdout.split(separator: "\n").map(String.init)
        #expect(rows.contains("channel            remembered  3"), "\(shown.stdout)")
        #expect(rows.contains("open               remembered  true: cards shown as soon as picked, your card on the air in clear"),
                "\(shown.stdout)")
        #expect(rows.contains("relayUser          remembered  ann"), "\(shown.stdout)")
        #expect(rows.contains("deck               default     app"), "\(shown.stdout)")
        #expect(rows.contains("range              remembered  hall: people 20 m and more away are in the room"), "\(shown.stdout)")
        #expect(rows.contains("relayCA            default     the system's CAs"), "\(shown.stdout)")
        #expect(shown.stdout.contains("Remembered in \(file);"), "\(shown.stdout)")

        let json = try run("config", "--json")
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["file"] as? String == file)
        let settings = try #require(object["settings"] as? [String: [String: Any]])
        #expect(settings["channel"]?["value"] as? Int == 3 && settings["channel"]?["remembered"] as? Bool == true)
        #expect(settings["quiet"]?["value"] as? Bool == false && settings["quiet"]?["remembered"] as? Bool == false)
        #expect(settings["range"]?["value"] as? String == "hall")
        #expect(settings.count == 12)
    }

    @Test func resetForgetsOneOrAllAndRefusesOtherNames() throws {
        try write(#"{"channel":3,"open":true,"quiet":true}"#)
        let one = try run("config", "--reset", "open")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout == "forgot open (\(file))\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == #"{"channel":3,"quiet":true}"# + "\n")
        #expect(try run("config", "--reset", "open").stdout == "open: nothing was remembered (\(file))\n")

        let bad = try run("config", "--reset", "colour")
        #expect(bad.status == 64)
        #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        #expect(bad.stderr.contains("the settings are channel, name, adapter, role, deck, open, quiet, range, relay, relayUser, relayPasswordFile, relayCA, or all."),
                "\(bad.stderr)")

        let all = try run("config", "--reset", "all")
        #expect(all.status == 0)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func aDamagedConfigNamesTheFieldAndExits65() throws {
        try write("{\"channel\":")
        let broken = try run("config")
        #expect(broken.status == 65)
        #expect(broken.stderr == "Error: \(file) is not a JSON object of settings; edit it, or run `estimator config --reset all` to forget every setting.\n")
        // join reads the same file and says the same.
        #expect(try run("join", "--adapter", "none").stderr == broken.stderr)

        try write(#"{"channel":999}"#)
        let range = try run("config")
        #expect(range.status == 65)
        #expect(range.stderr == "Error: In \(file), channel must be a whole number from 0 to 255; edit it or run `estimator config --reset channel`.\n")
        // The way out the sentence names works on the damaged file.
        #expect(try run("config", "--reset", "channel").status == 0)
        #expect(try run("config").status == 0)

        try write(#"{"open":"yes"}"#)
        let type = try run("config")
        #expect(type.status == 65)
        #expect(type.stderr == "Error: In \(file), open must be true or false; edit it or run `estimator config --reset open`.\n")
    }

    @Test func rememberingOpenSaysWhatGoesOnTheAir() async throws {
        let sandbox = try await SessionSandbox.start()
        let first = try await sandbox.run("watch", "--open", "--once")
        #expect(first.status == 0, "\(first.stderr)")
        let note = "note: --open is remembered: tables show cards as soon as they are picked, and the sessions join starts from now on put your card on the air in clear, as the app does; `estimator config --reset open` goes back.\n"
        #expect(first.stderr == note)
        #expect(try String(contentsOfFile: sandbox.configFile, encoding: .utf8).contains(#""open":true"#))
        let again = try await sandbox.run("watch", "--open", "--once")
        #expect(again.stderr.isEmpty, "said once, when it becomes remembered: \(again.stderr)")
        #expect(try await sandbox.run("watch", "--no-open", "--once").stderr.isEmpty)
    }
}

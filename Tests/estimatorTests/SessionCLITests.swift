import DBusTestSupport
import Foundation
import Testing

@Suite(.timeLimit(.minutes(2))) struct SessionCLITests {
    @Test func joinPickStatusLeave() async throws {
        let sandbox = try await SessionSandbox.start()
        let joined = try await sandbox.run("join", "--channel", "1", "--name", "전수열")
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.hasPrefix("joined channel 1 as 전수열 on hci0 (session pid "))
        #expect(kill(try sandbox.sessionPID(joined), 0) == 0, "the session runs on after join returns")

        let picked = try await sandbox.run("pick", "8")
        #expect(picked.status == 0)
        #expect(picked.stdout == "picked 8\n")
        let status = try await sandbox.run("status")
        #expect(status.stdout.contains("channel 1 as 전수열, card 8"))
        #expect(status.stdout.contains("radio: advertising and scanning"))

        let left = try await sandbox.run("leave")
        #expect(left.stdout == "left channel 1\n")
        try await sandbox.waitForSessionEnd()
        #expect(!FileManager.default.fileExists(atPath: sandbox.runtimeDirectory + "/hci0.sock"))
        let after = try await sandbox.run("pick", "5")
        #expect(after.status == 69)
        #expect(after.stderr.contains("run `estimator join` first"))
    }

    /// What join's caller left open without close-on-exec stays out of the
    /// long-lived session: a test harness waiting for join's end (a pipe or
    /// socket closing) would otherwise wait for the session's.
    @Test func theSessionHoldsNothingOfJoinsCaller() async throws {
        let sandbox = try await SessionSandbox.start()
        let marker = "\(sandbox.root)/marker"
        try #require(FileManager.default.createFile(atPath: marker, contents: nil))
        let joined = try await sandbox.run("join", "--channel", "1", "--name", "Ann",
                                           through: ["/bin/sh", "-c", #"exec 7<"$0" 9<"$0" && exec "$@""#, marker])
        #expect(joined.status == 0, "\(joined.stderr)")
        let session = try sandbox.sessionPID(joined)
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(session)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(session)/fd/\($0)")
        }
        #expect(held.contains { $0.hasSuffix("/run/estimator/hci0.lock") }, "its own descriptors are listed: \(held)")
        #expect(!held.contains(marker), "\(held)")
        try await sandbox.run("leave")
    }

    @Test func secondJoinSwitchesTheRunningSession() async throws {
        let sandbox = try await SessionSandbox.start()
        let first = try await sandbox.run("join", "--channel", "1", "--name", "Ann")
        let switched = try await sandbox.run("join", "--channel", "2", "--name", "Bob")
        #expect(switched.status == 0)
        #expect(try sandbox.sessionPID(switched) == sandbox.sessionPID(first), "the same session, switched live")
        #expect(switched.stdout.hasPrefix("joined channel 2 as Bob on hci0"))
        let config = try String(contentsOfFile: sandbox.configFile, encoding: .utf8)
        #expect(config == #"{"channel":2,"name":"Bob","adapter":"hci0"}"# + "\n")
        try await sandbox.run("leave")
    }

    @Test func joinDeckStartsSwitchesAndIsRemembered() async throws {
        let sandbox = try await SessionSandbox.start()
        let joined = try await sandbox.run("join", "--channel", "1", "--name", "Ann", "--deck", "fibonacci")
        #expect(joined.stdout.hasPrefix("joined channel 1 as Ann with the fibonacci deck on hci0"), "\(joined.stderr)")
        let seven = try await sandbox.run("pick", "7")
        #expect(seven.status == 64)
        #expect(seven.stdout.isEmpty)
        #expect(seven.stderr == "Error: 7 is not in the fibonacci deck; its cards are 0 1 2 3 5 8 13 21 34 55 89 ? ☕ (and none); `estimator join --deck` changes deck.\n")
        #expect(try await sandbox.run("pick", "21").stdout == "picked 21\n")
        #expect(try await sandbox.run("status").stdout.contains("channel 1 as Ann, card 21 (the fibonacci deck)\n"))
        #expect(try await sandbox.run("status", "--json").stdout.hasSuffix(#""revealed":false,"deck":"fibonacci","settingUpUntil":null,"range":"room","leaving":false,"unsavedSince":null,"unsaved":null}"# + "\n"))
        let sizes = try await sandbox.run("join", "--deck", "tshirt")
        #expect(sizes.stdout.hasPrefix("joined channel 1 as Ann with the tshirt deck on hci0"), "switched live")
        #expect(try await sandbox.run("pick", "m").stdout == "picked M\n")
        #expect(try await sandbox.run("pick", "8").status == 64)
        #expect(try String(contentsOfFile: sandbox.configFile, encoding: .utf8).contains(#""deck":"tshirt""#))
        try await sandbox.run("leave")
        try await sandbox.waitForSessionEnd()
        let again = try await sandbox.run("join")
        #expect(again.stdout.hasPrefix("joined channel 1 as Ann with the tshirt deck on hci0"), "remembered")
        try await sandbox.run("leave")
    }

    @Test func joinRangeStartsSwitchesAndIsRemembered() async throws {
        let sandbox = try await SessionSandbox.start()
        #expect(try await sandbox.run("join", "--channel", "1", "--name", "Ann", "--range", "hall").status == 0)
        #expect(try await sandbox.run("status", "--json").stdout.contains(#""range":"hall""#))
        #expect(try await sandbox.run("join", "--range", "near").status == 0)
        #expect(try await sandbox.run("status").stdout.contains("0 people heard in channel 1 (range near)"), "switched live")
        #expect(try String(contentsOfFile: sandbox.configFile, encoding: .utf8).contains(#""range":"near""#))
        try await sandbox.run("leave")
    }

    @Test func joinRemembersAndDefaults() async throws {
        let sandbox = try await SessionSandbox.start()
        try await sandbox.run("join", "--channel", "7", "--name", "Carol", "--adapter", "hci1")
        try await sandbox.run("leave")
        let again = try await sandbox.run("join")
        #expect(again.stdout.hasPrefix("joined channel 7 as Carol on hci1"))
        try await sandbox.run("leave")
    }

    static let badJoinInputs: [([String], Int32)] = [
        (["--channel", "256"], 64), (["--channel", "-1"], 64), (["--channel", "abc"], 64),
        (["--name", ""], 65), (["--name", "a\u{1B}[2Jb"], 65), (["--name", "tab\there"], 65),
        (["--name", String(repeating: "x", count: 5000)], 65), (["--adapter", "../../etc"], 64),
        (["--stale", "0"], 64), (["--deck", "1,2,x"], 64), (["--deck", "dice"], 64),
        (["--range", "far"], 64),
    ]

    @Test(arguments: badJoinInputs)
    func badJoinInputIsOneSentenceAndWritesNothing(arguments: [String], code: Int32) async throws {
        let sandbox = try await SessionSandbox.start()
        let result = try await sandbox.run(arguments: ["join"] + arguments)
        #expect(result.status == code)
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.split(separator: "\n").count <= 2)
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.configFile))
        #expect(!FileManager.default.fileExists(atPath: sandbox.runtimeDirectory + "/hci0.sock"))
    }

    @Test func joinReportsTheRadioFailureWithItsCode() async throws {
        let sandbox = try await SessionSandbox.start()
        try sandbox.system.fake.setPowered("hci0", false)
        let result = try await sandbox.run("join", "--channel", "1", "--name", "Ann", "--adapter", "hci0")
        #expect(result.status == 69)
        #expect(result.stderr == "Error: hci0 is powered off; turn it on with `bluetoothctl power on` (`estimator doctor` says what else blocks it).\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.configFile), "a failed join remembers nothing")
        #expect(!FileManager.default.fileExists(atPath: sandbox.runtimeDirectory + "/hci0.lock"), "nor leaves its lock")
        #expect(!FileManager.default.fileExists(atPath: "\(sandbox.root)/state/estimator/hci0.log"), "nor a log")
        #expect(try await sandbox.run("status").status == 69)
    }

    @Test func everyCommandTakesAnAdapterByItsAddress() async throws {
        let sandbox = try await SessionSandbox.start()
        let hci1 = "00:aa:01:01:00:01"  // the fake bluetoothd's hci1
        let joined = try await sandbox.run("join", "--channel", "0", "--name", "Ann", "--adapter", hci1)
        #expect(joined.stdout.hasPrefix("joined channel 0 as Ann on hci1"), "\(joined.stderr)")
        #expect(try String(contentsOfFile: sandbox.configFile, encoding: .utf8).contains(#""adapter":"hci1""#), "remembered by name")
        #expect(try await sandbox.run("pick", "5", "--adapter", hci1).stdout == "picked 5\n")
        let status = try await sandbox.run("status", "--adapter", hci1, "--json")
        #expect(status.stdout.hasPrefix(#"{"running":true,"pid":"#))
        #expect(status.stdout.hasSuffix(#""adapter":"hci1","channel":0,"name":"Ann","card":"5","cardRaw":"05","peers":0,"radio":"advertising and scanning","round":null,"title":null,"nameTaken":false,"relay":null,"relayDownSince":null,"role":"voter","revealed":false,"deck":"app","settingUpUntil":null,"range":"room","leaving":false,"unsavedSince":null,"unsaved":null}"# + "\n"))
        let unknown = try await sandbox.run("pick", "5", "--adapter", "00:AA:01:07:00:07")
        #expect(unknown.status == 69)
        #expect(unknown.stderr.hasPrefix("Error: No adapter has the address 00:AA:01:07:00:07 (there are hci0 00:AA:01:00:00:00, hci1 00:AA:01:01:00:01)"))
        #expect(try await sandbox.run("leave", "--adapter", hci1).stdout == "left channel 0\n")
    }

    @Test func withoutAnAdapterJoinTakesTheFirstPoweredOne() async throws {
        let sandbox = try await SessionSandbox.start()
        try sandbox.system.fake.setPowered("hci0", false)
        let joined = try await sandbox.run("join", "--channel", "0", "--name", "Ann")
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.hasPrefix("joined channel 0 as Ann on hci1"))
        try await sandbox.run("leave")
    }

    /// docs/PROTOCOL.md, Finding a room: with no channel typed or
    /// remembered, join listens, then says the room it found as people say
    /// it aloud and type it, and remembers it for the next join.
    @Test func withoutAChannelJoinFindsARoomAndRemembersIt() async throws {
        let sandbox = try await SessionSandbox.start()
        let joined = try await sandbox.run("join", "--name", "Ann")
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stderr.isEmpty, "the progress line is for a terminal: \(joined.stderr)")
        let found = try #require(joined.stdout.wholeMatch(
            of: /joined room ([0-9]+) as Ann on hci0 \(session pid [0-9]+\); others join with: estimator join --channel ([0-9]+)\n/))
        #expect(found.1 == found.2)
        let room = try #require(UInt8(found.1))
        #expect(room != 0, "the app's channel is never found")
        let status = try await sandbox.run("status", "--json").stdout
        #expect(status.contains(#""channel":\#(room),"#), "\(status)")
        #expect(!status.contains(#""settingUpUntil":null"#), "the room is being set up: \(status)")
        #expect(try await sandbox.run("status").stdout.contains("room \(room) being set up: until "))
        #expect(try String(contentsOfFile: sandbox.configFile, encoding: .utf8).contains(#""channel":\#(room)"#), "remembered")
        try await sandbox.run("config", "--reset", "channel")
        let running = try await sandbox.run("join", "--name", "Ann")
        #expect(running.stdout.hasPrefix("joined channel \(room) as Ann"), "the running session keeps its room: \(running.stdout)")
        #expect(try String(contentsOfFile: sandbox.configFile, encoding: .utf8).contains(#""channel":\#(room)"#), "remembered again")
        #expect(try await sandbox.run("leave").stdout == "left channel \(room)\n")
        let again = try await sandbox.run("join", "--name", "Ann")
        #expect(again.stdout.hasPrefix("joined channel \(room) as Ann on hci0"), "the room remembered, without looking: \(again.stdout)")
        #expect(again.stderr.isEmpty)
        try await sandbox.run("leave")
    }

    /// On a terminal, join says why its answer takes a few seconds, on
    /// standard error before the answer.
    @Test func onATerminalJoinSaysItIsLookingForARoom() async throws {
        let sandbox = try await SessionSandbox.start()
        let onATerminal = ["/bin/bash", "-c", #"exec /usr/bin/script -qec "${*@Q}" /dev/null"#, "bash"]
        let joined = try await sandbox.run("join", "--name", "Ann", through: onATerminal)
        #expect(joined.status == 0, "\(joined.stdout)")
        let lines = joined.stdout.split(whereSeparator: \.isNewline)
        #expect(lines.first == "Looking for a room nearby (9 s)…", "\(joined.stdout)")
        #expect(lines.count == 2 && lines.last?.hasPrefix("joined room ") == true, "\(joined.stdout)")
        try await sandbox.run("leave")
    }

    @Test func pickErrors() async throws {
        let sandbox = try await SessionSandbox.start()
        let none = try await sandbox.run("pick", "8")
        #expect(none.status == 69)
        #expect(none.stderr == "Error: No session is running; run `estimator join` first.\n")
        let bad = try await sandbox.run("pick", "127")
        #expect(bad.status == 64)
        #expect(bad.stderr == "Error: The value '127' is invalid for '<card>': valid cards are those of the app deck (0 0.5 1 2 3 5 8 13 20 40 100), unsure (or '?'), coffee or none. See 'estimator pick --help' for more information.\n")
        let late = try await sandbox.run("pick", "--adapter", "hci0", "300")
        #expect(late.stderr.contains("valid cards are those of the app deck (0 0.5"), "\(late.stderr)")
        try FileManager.default.createDirectory(atPath: "\(sandbox.root)/config/estimator", withIntermediateDirectories: true)
        try #"{"deck":"tshirt"}"#.write(toFile: sandbox.configFile, atomically: true, encoding: .utf8)
        let sized = try await sandbox.run("settle", "300")
        #expect(sized.status == 64)
        #expect(sized.stderr == "Error: The value '300' is invalid for '<card>': valid cards are those of the tshirt deck (XS S M L XL XXL), unsure (or '?'), coffee or none. See 'estimator settle --help' for more information.\n")
        try FileManager.default.removeItem(atPath: sandbox.configFile)
        #expect(try await sandbox.run("status").status == 69)
        let leave = try await sandbox.run("leave")
        #expect(leave.status == 0, "scripts call leave in cleanup traps")
        #expect(leave.stdout == "No session is running; nothing to leave.\n")
        #expect(try await sandbox.run("status", "--json").stdout == #"{"running":false}"# + "\n")
    }

    @Test func severalSessionsNeedAnAdapter() async throws {
        let sandbox = try await SessionSandbox.start()
        #expect(try await sandbox.run("join", "--name", "Ann", "--adapter", "hci0").status == 0)
        #expect(try await sandbox.run("join", "--name", "Bob", "--adapter", "hci1").status == 0)
        let ambiguous = try await sandbox.run("pick", "8")
        #expect(ambiguous.status == 64)
        #expect(ambiguous.stderr == "Error: Sessions are running on hci0, hci1; choose one with --adapter.\n")
        #expect(try await sandbox.run("pick", "8", "--adapter", "hci1").stdout == "picked 8\n")
        #expect(try await sandbox.run("status", "--adapter", "hci1").stdout.contains("as Bob, card 8"))
        #expect(try await sandbox.run("status", "--adapter", "hci0").stdout.contains("as Ann, no card yet"))
        #expect(try await sandbox.run("leave", "--adapter", "hci0").status == 0)
        #expect(try await sandbox.run("pick", "3").stdout == "picked 3\n", "one left: it is the default")
        #expect(try await sandbox.run("leave").status == 0)
    }

    @Test func killMinusNineLeavesNothingThatBlocksTheNextJoin() async throws {
        let sandbox = try await SessionSandbox.start()
        let first = try await sandbox.run("join", "--name", "Ann")
        let pid = try sandbox.sessionPID(first)
        kill(pid, SIGKILL)
        try await sandbox.waitForSessionEnd()
        #expect(FileManager.default.fileExists(atPath: sandbox.runtimeDirectory + "/hci0.sock"), "a stale socket")
        #expect(try await sandbox.run("pick", "8").status == 69, "a stale socket is no session")
        let second = try await sandbox.run("join", "--name", "Ann")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try sandbox.sessionPID(second) != pid)
        try await sandbox.run("leave")
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalsLeave(signal: Int32) async throws {
        let sandbox = try await SessionSandbox.start()
        let pid = try sandbox.sessionPID(try await sandbox.run("join", "--channel", "0", "--name", "Ann"))
        kill(pid, signal)
        try await sandbox.waitForSessionEnd()
        let log = try String(contentsOfFile: "\(sandbox.root)/state/estimator/hci0.log", encoding: .utf8)
        #expect(log.contains("left channel 0"), "left properly: \(log)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.runtimeDirectory + "/hci0.sock"))
    }

    @Test func anotherUserIsRefusedBySOPeerCred() async throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let sandbox = try await SessionSandbox.start()
        try await sandbox.run("join", "--name", "Ann")
        // Open the way to the socket so that only the peer-credential check stands.
        for path in [sandbox.root, "\(sandbox.root)/run", sandbox.runtimeDirectory] { chmod(path, 0o755) }
        chmod(sandbox.runtimeDirectory + "/hci0.sock", 0o777)
        let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let refused = try await sandbox.run("pick", "8", "--adapter", "hci0", through: nobody)
        #expect(refused.status == 77)
        #expect(refused.stderr == "Error: This session belongs to another user.\n")
        #expect(try await sandbox.run("status").stdout.contains("no card yet"), "the pick did not happen")
        try await sandbox.run("leave")
    }

    @Test func watchFollowsTheSessionUntilItLeaves() async throws {
        let sandbox = try await SessionSandbox.start()
        try await sandbox.run("join", "--channel", "4", "--name", "Ann")
        let out = Pipe(), err = Pipe()
        // Not a terminal: a line per change.
        let watch = try ChildProcess(EstimatorProcess.executable.path, ["watch"], environment: sandbox.environment,
                                     output: out, error: err)
        // Its first line is the radio's state: from then on it is attached.
        let first = try await offPool { try out.readLine() }
        #expect(first == "radio: advertising and scanning\n")
        try await sandbox.run("pick", "5")
        try await sandbox.run("leave")
        let (outText, errText) = try await offPool { watch.finish(out, err) }
        #expect(watch.terminationStatus == 0, "\(errText)")
        #expect(errText == "The session ended: left channel 4.\n")
        // Alone in the room, Ann's own vote may be revealed; nobody else was heard.
        #expect(!outText.contains("joined") && !outText.contains("picked"), "\(outText)")
    }

    @Test func watchBadChannelIsOneSentence() async throws {
        let sandbox = try await SessionSandbox.start()
        let result = try await sandbox.run("watch", "--channel", "-1")
        #expect(result.status == 64)
        #expect(result.stderr == "Error: The value '-1' is invalid for '--channel <channel>': a channel is a whole number from 0 to 255."
                + " See 'estimator watch --help' for more information.\n")
    }

    /// A card's key picks it, `r` is `estimator round`, `v` is `estimator
    /// reveal` (the round shows at once, voted or not), `q` leaves.
    @Test func foregroundPicksStartsAndRevealsByKeyAndLeavesOnQ() async throws {
        let sandbox = try await SessionSandbox.start()
        let fore = try sandbox.launch(arguments: ["join", "--foreground", "--channel", "9", "--name", "Fore"], typing: true)
        fore.type("5rvq")
        let (outText, errText) = try await offPool { fore.finish() }
        #expect(fore.process.terminationStatus == 0, "\(errText)")
        #expect(outText.contains("Fore (you)"), "the table was drawn")
        #expect(outText.contains("channel 9 · round 1 · "), "r started the next round")
        #expect(outText.contains("revealed without Fore"), "v revealed it, my card cleared by the round")
        #expect(outText.hasSuffix("left channel 9\n"))
        #expect(!outText.contains("radio:"), "no log lines in the table")
        #expect(try String(contentsOfFile: sandbox.configFile, encoding: .utf8).contains(#""channel":9"#))
        #expect(try await sandbox.run("status").status == 69, "the session ended with the terminal")
    }

    @Test(arguments: [false, true])
    func foregroundRingsTheBellOnceAtTheRevealUnlessQuiet(quiet: Bool) async throws {
        let sandbox = try await SessionSandbox.start()
        let fore = try sandbox.launch(
            arguments: ["join", "--foreground", "--channel", "9", "--name", "Fore"] + (quiet ? ["--quiet"] : []), typing: true)
        fore.type("r5")
        // Alone, my vote reveals once the room has been heard (4 s after the start).
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("one vote: 5") {
            let chunk = try await offPool { fore.out.fileHandleForReading.availableData }
            try #require(!chunk.isEmpty, "the session ended first: \(String(decoding: seen, as: UTF8.self))")
            seen += chunk
        }
        fore.type("q")
        let (rest, errText) = try await offPool { fore.finish() }
        #expect(fore.process.terminationStatus == 0, "\(errText)")
        let bells = (String(decoding: seen, as: UTF8.self) + rest).filter { $0 == "\u{7}" }.count
        #expect(bells == (quiet ? 0 : 1))
    }
}

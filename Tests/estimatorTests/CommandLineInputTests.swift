import DBusTestSupport
import EstimatorKit
import Foundation
import Testing

/// Every flag given wrong values, over the real binary, with a session
/// running and a remembered config: each is refused with one line (one
/// sentence and, for parse errors, where the help is) and exit 64 or 65,
/// and neither the config nor the running session changes.
@Suite(.timeLimit(.minutes(2))) struct CommandLineInputTests {
    static let thousand = String(repeating: "x", count: 1000)
    /// Longer than any name is typed: refused, where a long name is cut.
    static let paste = String(repeating: "x", count: 5000)

    static let cases: [([String], Int32)] = [
        (["join", "--channel", "256"], 64), (["join", "--channel", "-1"], 64), (["join", "--channel", "abc"], 64),
        (["join", "--channel", ""], 64), (["join", "--channel", "1.5"], 64),
        (["join", "--name", ""], 65), (["join", "--name", "a\u{1B}[2Jb"], 65), (["join", "--name", "bell\u{7}"], 65),
        (["join", "--name", "\u{202E}evil"], 65), (["join", "--name", "line\nbreak"], 65),
        (["join", "--name", paste], 65), (["join", "--name", String(repeating: "전", count: 1400)], 65),
        (["join", "--adapter", ""], 64), (["join", "--adapter", "../../etc"], 64), (["join", "--adapter", "hci0\u{1B}[2J"], 64),
        (["join", "--stale", "0"], 64), (["join", "--stale", "-5"], 64), (["join", "--stale", "abc"], 64),
        (["join", "--bogus"], 64),
        (["watch", "--channel", "256"], 64), (["watch", "--channel", "-1"], 64), (["watch", "--channel", "abc"], 64),
        (["watch", "--stale", "3601"], 64), (["watch", "--adapter", thousand], 64),
        (["pick", "127"], 64), (["pick", "abc"], 64), (["pick", ""], 64), (["pick", "\u{1B}]52;c;aGk=\u{7}"], 64),
        (["pick", thousand], 64), (["pick", "-1"], 64), (["pick", "8", "--adapter", "hci0;rm"], 64),
        (["pick", "--adapter", "hci0", "256"], 64),
        (["status", "--adapter", "a b"], 64), (["leave", "--adapter", "/tmp"], 64), (["doctor", "--adapter", "hci\u{7}"], 64),
        (["packet", "encode", "--channel", "256", "--card", "8", "--name", "A"], 64),
        (["packet", "encode", "--channel", "-1", "--card", "8", "--name", "A"], 64),
        (["packet", "encode", "--channel", "abc", "--card", "8", "--name", "A"], 64),
        (["packet", "encode", "--card", "127", "--name", "A"], 64),
        (["join", "--deck", "1,x"], 64), (["join", "--deck", "dice"], 64),
        (["packet", "encode", "--card", "8", "--name", ""], 65),
        (["packet", "encode", "--card", "8", "--name", "\u{1B}[2J"], 65),
        (["packet", "encode", "--card", "8", "--name", paste], 65),
        (["pik", "8"], 64), (["help", "nosuch"], 64), (["help", "session"], 64), (["join", "--version"], 64),
        (["pick", "--foo"], 64), (["pick"], 64), (["nosuch"], 64), (["--foo"], 64), (["packet", "nosuch"], 64),
        (["packet", "decode", "abc"], 65), (["packet", "decode", "040108Ann"], 65), (["packet", "decode", "01ZZ08Ann"], 65),
        (["packet", "decode", "--hex", "zz"], 65), (["packet", "decode", "--hex", "3031303"], 65),
    ]

    /// Bytes that are not UTF-8 reach the command as U+FFFD: a value that
    /// holds one is refused by its type, with what to fix, exit 64.
    @Test(arguments: [
        (#"join --name "$(printf '\377\376')""#, "--name <name>", "join"),
        (#"pick "$(printf '8\377')""#, "<card>", "pick"),
        (#"round "$(printf 'ABC-\377')""#, "<title>", "round"),
        (#"packet encode --card 8 --name "$(printf 'A\377')""#, "--name <name>", "packet encode"),
    ])
    func anArgumentThatIsNotUTF8IsRefused(shell: String, argument: String, command: String) throws {
        let out = Pipe(), err = Pipe()
        let process = try ChildProcess("/bin/sh", ["-c", #"exec "$0" "# + shell, EstimatorProcess.executable.path],
                                       output: out, error: err)
        let (stdout, stderr) = process.finish(out, err)
        #expect(process.terminationStatus == 64)
        #expect(stdout.isEmpty)
        #expect(stderr.hasPrefix("Error: The value '"), "\(stderr)")
        #expect(stderr.hasSuffix("' is invalid for '\(argument)': it is not UTF-8 text; type it in a UTF-8 terminal (check the locale). See 'estimator \(command) --help' for more information.\n"),
                "\(stderr)")
    }

    /// A value refused by its type's reading (`CommandLineValue`, through
    /// ArgumentParser's `transform:`) or by a command's `validate()`: one
    /// line that names the option and what was typed and says why, then
    /// where the help is; exit 64.
    @Test(arguments: [
        ("join", ["--channel", "256"], "The value '256' is invalid for '--channel <channel>': a channel is a whole number from 0 to 255."),
        ("watch", ["--stale", "-5"], "The value '-5' is invalid for '--stale <seconds>': give a whole number of seconds from 1 to 3600."),
        ("status", ["--adapter", "../etc"],
         "The value '../etc' is invalid for '--adapter <adapter>': an adapter is a name, like hci0, or an address, like 00:1A:7D:DA:71:13 (or none, for a session with a relay and no Bluetooth)."),
        ("history", ["--last", "0"], "The value '0' is invalid for '--last <N>': give a whole number of rounds, 1 or more."),
        ("packet encode", ["--round", "16", "--card", "5", "--name", "Ann"],
         "The value '16' is invalid for '--round <round>': rounds on the air are 0 to 15."),
        ("packet encode", ["--revealed", "--card", "5", "--name", "Ann"], "--revealed goes with --round N: only a round is revealed."),
        ("round", ["ABC\u{7}"], "The title holds control characters; give it as plain text."),
        ("round", ["ABC-1", "--timer", "2"], "The value '2' is invalid for '--timer <duration>': \(CountdownParseError.forms)."),
        ("reveal", ["--in", "61m"], "The value '61m' is invalid for '--in <duration>': \(CountdownParseError.forms)."),
        ("watch", ["--board", "--json"], "--board draws on a terminal and --json writes lines for programs; give one."),
    ])
    func aBadValueIsOneSentenceThatSaysWhy(command: String, arguments: [String], sentence: String) throws {
        let result = try EstimatorProcess.run(arguments: command.split(separator: " ").map(String.init) + arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "Error: \(sentence) See 'estimator \(command) --help' for more information.\n")
    }

    @Test func aHugeArgumentIsNotEchoedWhole() throws {
        let huge = String(repeating: "x", count: 100_000)
        for arguments in [["pick", huge], ["join", "--channel", huge], ["join", "--channel=" + huge], ["join", "--" + huge],
                          ["packet", "decode", "--hex", huge + "z"]] {
            let result = try EstimatorProcess.run(arguments: arguments)
            #expect(result.stderr.count < 300, "\(result.stderr.prefix(80))")
            #expect(result.stderr.contains(String(repeating: "x", count: 30)) && result.stderr.contains("…"))
        }
        let spaced = String(repeating: "x ", count: 50_000)
        for arguments in [["pick", spaced], ["join", "--channel=" + spaced], ["round", "--timer", spaced]] {
            let result = try EstimatorProcess.run(arguments: arguments)
            #expect(result.status == 64)
            #expect(result.stderr.count < 300 && result.stderr.contains("x x x") && result.stderr.contains("…"), "\(result.stderr.prefix(80))")
        }
    }

    @Test func typosGetASuggestionAndHelpKnowsOnlyRealCommands() throws {
        let pik = try EstimatorProcess.run("pik", "8")
        #expect(pik.status == 64)
        #expect(pik.stderr == "Error: 'pik' is not an estimator command; did you mean 'pick'? See 'estimator --help' for more information.\n")
        let pikOption = try EstimatorProcess.run("pik", "--foo")
        #expect(pikOption.stderr == pik.stderr, "the word, not the option")
        let xyzzy = try EstimatorProcess.run("xyzzy")
        #expect(xyzzy.status == 64)
        #expect(xyzzy.stderr == "Error: 'xyzzy' is not an estimator command. See 'estimator --help' for more information.\n")
        let decod = try EstimatorProcess.run("packet", "decod", "0101FEAnn")
        #expect(decod.status == 64)
        #expect(decod.stderr == "Error: 'decod' is not an 'estimator packet' command; did you mean 'decode'? See 'estimator packet --help' for more information.\n")
        #expect(try EstimatorProcess.run("packet").stdout == EstimatorProcess.run("packet", "--help").stdout, "no command: the help")
        let chanel = try EstimatorProcess.run("join", "--chanel", "1")
        #expect(chanel.stderr == "Error: Unknown option '--chanel'. Did you mean '--channel'? See 'estimator join --help' for more information.\n")
        let nosuch = try EstimatorProcess.run("help", "nosuch")
        #expect(nosuch.status == 64)
        #expect(nosuch.stdout.isEmpty)
        #expect(nosuch.stderr == "Error: 'nosuch' is not an estimator command; see 'estimator help' for the commands.\n")
        let deep = try EstimatorProcess.run("help", "packet", "decod")
        #expect(deep.status == 64)
        #expect(deep.stderr == "Error: 'decod' is not an 'estimator packet' command; did you mean 'decode'? See 'estimator help'.\n")
        #expect(try EstimatorProcess.run("help", "session").status == 64, "hidden")
        #expect(try EstimatorProcess.run("help", "top-level").status == 64, "hidden")
        let top = try EstimatorProcess.run("help")
        #expect(top.status == 0)
        #expect(!top.stdout.contains("  session "), "the internal command is not listed")
        #expect(!top.stdout.contains("top-level"), "nor the default one")
        #expect(try EstimatorProcess.run().stdout == top.stdout, "no command: the help")
        #expect(try EstimatorProcess.run("help", "packet", "decode").stdout.contains("USAGE: estimator packet decode"))
        let helpHelp = try EstimatorProcess.run("help", "help")
        #expect(helpHelp.status == 0 && helpHelp.stderr.isEmpty, "\(helpHelp.stderr)")
        #expect(helpHelp.stdout.contains("USAGE: estimator help"), "\(helpHelp.stdout)")
    }

    /// ArgumentParser reports a missing argument before an unknown option;
    /// `pick` takes its card as optional so that the option is what is said.
    @Test func pickReportsAnUnknownOptionAndAMissingCard() throws {
        let option = try EstimatorProcess.run("pick", "--foo")
        #expect(option.status == 64)
        #expect(option.stdout.isEmpty)
        #expect(option.stderr == "Error: Unknown option '--foo'. See 'estimator pick --help' for more information.\n")
        let missing = try EstimatorProcess.run("pick")
        #expect(missing.status == 64)
        #expect(missing.stderr == "Error: Give the card to pick, as in `estimator pick 8`. See 'estimator pick --help' for more information.\n")
        #expect(try EstimatorProcess.run("pick", "--help").stdout.contains("USAGE: estimator pick <card> [--adapter <adapter>]"))
    }

    @Test func versionIsOnlyTheTopLevels() throws {
        let version = try EstimatorProcess.run("--version")
        #expect(version.status == 0)
        #expect(version.stdout == "0.1.0\n")
        #expect(try EstimatorProcess.run("--help").stdout.contains("--version"))
        for command in ["join", "pick", "status", "leave", "doctor", "packet encode", "packet decode"] {
            let help = try EstimatorProcess.run(arguments: command.split(separator: " ").map(String.init) + ["--help"])
            #expect(!help.stdout.contains("--version"), "\(command)")
        }
        // Not joined: an option join does not have (badValuesAreOneLineAndChangeNothing
        // shows that nothing changes).
        let join = try EstimatorProcess.run("join", "--version")
        #expect(join.status == 64)
        #expect(join.stdout.isEmpty)
        #expect(join.stderr == "Error: Unknown option '--version'. See 'estimator join --help' for more information.\n")
    }

    @Test func examplesMarkCommandsWithADollar() throws {
        for command in ["join", "pick", "status", "leave", "doctor", "packet encode", "packet decode"] {
            let help = try EstimatorProcess.run(arguments: command.split(separator: " ").map(String.init) + ["--help"]).stdout
            let examples = help.split(separator: "\n").drop { !$0.hasPrefix("Example") }.dropFirst()
                .prefix { !$0.hasPrefix("USAGE") && !$0.hasPrefix("JSON") }
            let commands = examples.filter { $0.contains("estimator ") && !$0.hasPrefix("  {") }
            #expect(!commands.isEmpty, "\(command)")
            #expect(commands.allSatisfy { $0.hasPrefix("  $ estimator ") }, "\(command): \(commands)")
        }
    }

    @Test func badValuesAreOneLineAndChangeNothing() async throws {
        let sandbox = try await SessionSandbox.start()
        let joined = try await sandbox.run("join", "--channel", "3", "--name", "Ann")
        #expect(joined.status == 0, "\(joined.stderr)")
        try await sandbox.run("pick", "5")
        let config = try Data(contentsOf: URL(fileURLWithPath: sandbox.configFile))
        let status = try await sandbox.run("status").stdout

        for (arguments, code) in Self.cases {
            let result = try await sandbox.run(arguments: arguments)
            let shown = arguments.map { $0.debugDescription }.joined(separator: " ")
            #expect(result.status == code, "\(shown): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(shown)")
            #expect(result.stderr.hasPrefix("Error: "), "\(shown): \(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1 && result.stderr.hasSuffix("\n"), "\(shown): \(result.stderr)")
            #expect(!result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" },
                    "\(shown): control characters in \(result.stderr.debugDescription)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.configFile)) == config, "\(shown) changed the config")
        }
        #expect(try await sandbox.run("status").stdout == status, "the running session is unchanged")
        try await sandbox.run("leave")
    }
}

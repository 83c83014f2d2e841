import DBusTestSupport
import EstimatorKit
import Foundation
import RadioScheduling
import Testing
import Watch

/// Every example the docs show, run through the built binary and compared
/// with what the docs say it prints, so that README.md and `--help` (and
/// the man pages made from it) stay true of the binary.
///
/// The examples are read from the docs themselves: README.md, and every
/// command's discussion as the binary dumps it (`--experimental-dump-help`,
/// the man pages' source). An example is a line `$ estimator …` (or a
/// pipeline with estimator in it); what it prints is the lines under it, up
/// to a blank line, the next `$` line or the end of the code block. It runs
/// in `/bin/sh` with the built binary first on PATH, in a sandbox of its
/// own: XDG directories in a temporary folder, TZ=UTC, a UTF-8 locale, a
/// private system bus with a fake bluetoothd (`SessionSandbox`). An example
/// runs after its `scenes` entry there (a `join --channel 1 --name 전수열`
/// for a command that needs a session, the meeting's `history` for one that
/// reads it); the files the docs name without showing them (`fixtures`)
/// are in its working directory. Its standard output then its standard
/// error must be the lines shown, exactly, with two rules: `pid 4242` in
/// the docs stands for whatever pid the session has, and spaces at the end
/// of a printed line (a table's empty last column) are not compared.
///
/// Not run, by these rules only:
/// - an example that shows no output: there is nothing to compare (`watch`,
///   `join --foreground` and the like run until stopped);
/// - a `$` line that does not run estimator (`$ sudo mosquitto_passwd …`);
/// - an example in `needsMore`, each named by its command line with what
///   it needs that a sandbox of one person does not have: other people in
///   the room, a meeting held today, a relay's broker, jq, the machine's
///   own Bluetooth. An entry that matches no example fails the
///   test, so the list goes when the example does.
@Suite(.timeLimit(.minutes(5))) struct DocExampleTests {
    /// An example as a doc shows it.
    struct Example: CustomTestStringConvertible, Sendable {
        /// Where it is shown: `README.md:63` or `estimator round --help`.
        let place: String
        /// The command line after `$ `, its trailing `# comment` included.
        let line: String
        /// The lines shown under it.
        let output: [String]

        var testDescription: String { "\(place): $ \(line)" }

        /// The command line without a trailing comment, as `needsMore` names it.
        var command: String {
            guard let hash = line.range(of: " #") else { return line }
            return line[..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
        }

        /// The first word after `estimator`: `pick` in `estimator pick 8`.
        var verb: String? {
            guard let range = command.range(of: "estimator ") else { return nil }
            return command[range.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    /// What an example runs after: commands, and whether the meeting's
    /// `history` is kept.
    struct Scene {
        /// Command lines, run as the example is.
        var steps: [String] = []
        var history = false
    }

    /// The scene of an example, by its command line, else by its command.
    static let scenes: [String: Scene] = {
        let join = "estimator join --channel 1 --name 전수열"
        return ["pick": Scene(steps: [join, "estimator round ABC-123"]), "round": Scene(steps: [join]), "settle": Scene(steps: [join]),
                "status": Scene(steps: [join]), "leave": Scene(steps: [join]),
                "reveal": Scene(steps: [join, "estimator round ABC-123"]),
                "history": Scene(history: true),
                "estimator backlog": Scene(steps: ["estimator backlog sprint-42.csv"], history: true),
                "estimator round": Scene(steps: [join, "estimator backlog sprint-42.csv"])]
    }()

    /// The meeting the docs' history and backlog examples show, as the
    /// session keeps it: ABC-1 agreed at 5, ABC-3 with no numbers, and a
    /// story out of the backlog agreed by consensus.
    static let history = """
        {"id":"1/1/2026-11-29T06:05:10.000Z","time":"2026-11-29T06:05:10.000Z","channel":1,"round":1,"title":"ABC-1 Login with passkeys","votes":[{"name":"Alice","card":"5","cardRaw":"05"},{"name":"전수열","card":"8","cardRaw":"08"}],"median":6.5,"mean":6.5,"nearest":"5","consensus":false,"questions":0,"coffees":0,"story":{"key":"ABC-1","summary":"Login with passkeys"},"agreed":"5"}
        {"id":"1/3/2026-11-29T06:15:10.000Z","time":"2026-11-29T06:15:10.000Z","channel":1,"round":3,"title":"ABC-3 Board","votes":[],"median":null,"mean":null,"nearest":null,"consensus":false,"questions":0,"coffees":0,"story":{"key":"ABC-3","summary":"Board"},"agreed":null}
        {"id":"1/4/2026-11-29T06:15:50.000Z","time":"2026-11-29T06:15:50.000Z","channel":1,"round":4,"title":"ABC-9 login","votes":[{"name":"Alice","card":"3","cardRaw":"03"},{"name":"전수열","card":"3","cardRaw":"03"}],"median":3,"mean":3,"nearest":"3","consensus":true,"questions":0,"coffees":0,"story":null,"agreed":"3"}

        """

    /// Examples whose output needs more than one person's sandbox, by
    /// command line, and what.
    static let needsMore: [String: String] = [
        "estimator reveal": "other people in the room, one of whom has not voted",
        "estimator settle": "other people in the room, who voted differently",
        "estimator settle 5": "a revealed round of a meeting",
        "estimator status": "other people in the room and a meeting under way",
        "estimator status --json | jq -r .card": "jq, and a card picked in a meeting under way",
        "estimator history --csv --since today > sprint-42.csv": "a meeting held today",
        "estimator history --csv --since today > sprint-42-estimates.csv": "a meeting held today",
        "estimator join --relay mqtts://broker.example:8883/team-a --relay-user team": "the team's MQTT broker",
        "estimator doctor": "the machine's own system bus and Bluetooth",
        "estimator join --name 전수열": "a room nearby: the channel found is drawn at random",
    ]

    /// Files the examples read that the docs name but do not show, as a
    /// tracker's export would have them.
    static let fixtures = [
        "sprint-42.csv": "Issue key,Summary\nABC-1,Login with passkeys\nABC-2,Export\nABC-3,Board\n",
        "plan.csv": "Ticket,Story,Owner\nABC-1,Login with passkeys,Ann\nABC-2,Export,Bob\nABC-3,Board,Cy\n",
    ]

    // MARK: Reading the docs

    /// The examples of a text: README.md, or a discussion.
    static func examples(in text: String, place: (Int) -> String) -> [Example] {
        let lines = text.components(separatedBy: "\n")
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let indent = String(line.prefix { $0 == " " })
            index += 1
            let body = line.dropFirst(indent.count)
            guard body.hasPrefix("$ "), runsEstimator(String(body.dropFirst(2))) else { continue }
            var output: [String] = []
            while index < lines.count, lines[index].hasPrefix(indent) {
                let shown = lines[index].dropFirst(indent.count)
                guard !shown.trimmingCharacters(in: .whitespaces).isEmpty, !shown.hasPrefix("$ "), !shown.hasPrefix("```")
                else { break }
                output.append(String(shown))
                index += 1
            }
            examples.append(Example(place: place(index - output.count), line: String(body.dropFirst(2)), output: output))
        }
        return examples
    }

    /// Whether a command line runs estimator (alone or in a pipeline).
    static func runsEstimator(_ line: String) -> Bool {
        line.hasPrefix("estimator ") || line.contains("| estimator ")
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let readme: [Example] = {
        let text = (try? String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        return examples(in: text) { "README.md:\($0)" }
    }()

    /// Every command's discussion, as the binary dumps it for the man pages.
    static let help: [Example] = {
        guard let dump = try? EstimatorProcess.run("--experimental-dump-help"),
              let json = try? JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any],
              let root = json["command"] as? [String: Any] else { return [] }
        var examples: [Example] = []
        func visit(_ command: [String: Any], path: [String]) {
            let name = command["commandName"] as? String ?? ""
            let path = path + [name]
            if let discussion = command["discussion"] as? String {
                examples += Self.examples(in: discussion) { _ in "\(path.joined(separator: " ")) --help" }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] where sub["shouldDisplay"] as? Bool ?? true {
                visit(sub, path: path)
            }
        }
        visit(root, path: [])
        return examples
    }()

    static let all = readme + help

    /// The examples run: those that show output and need no more than the sandbox.
    static let runnable = all.filter { !$0.output.isEmpty && needsMore[$0.command] == nil }

    // MARK: The tests

    @Test func theDocsShowExamples() {
        #expect(Self.readme.count >= 10, "README.md's examples: \(Self.readme.count)")
        #expect(Self.help.count >= 20, "the help's examples: \(Self.help.count)")
    }

    @Test func everyExampleSkippedIsShown() {
        let shown = Set(Self.all.map(\.command))
        for (command, _) in Self.needsMore {
            #expect(shown.contains(command), "needsMore names `\(command)`, which no doc shows any more")
        }
    }

    @Test(arguments: DocExampleTests.runnable)
    func theExamplePrintsWhatTheDocShows(_ example: Example) async throws {
        let sandbox = try await SessionSandbox.start()
        for (name, text) in Self.fixtures { try text.write(toFile: "\(sandbox.root)/\(name)", atomically: true, encoding: .utf8) }
        let scene = Self.scenes[example.command] ?? example.verb.flatMap { Self.scenes[$0] } ?? Scene()
        if scene.history {
            try FileManager.default.createDirectory(atPath: "\(sandbox.root)/state/estimator", withIntermediateDirectories: true)
            try Self.history.write(toFile: "\(sandbox.root)/state/estimator/history.jsonl", atomically: true, encoding: .utf8)
        }
        var environment = sandbox.environment
        environment["PATH"] = EstimatorProcess.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        environment["TZ"] = "UTC"
        /// Runs a command line as a shell in the sandbox's folder would.
        func shell(_ line: String) async throws -> (status: Int32, stdout: String, stderr: String) {
            let script = "cd '\(sandbox.root)' && \(line)"
            return try await offPool { [environment] in
                let out = Pipe(), err = Pipe()
                let process = try ChildProcess("/bin/sh", ["-c", script], environment: environment, output: out, error: err)
                let (stdout, stderr) = process.finish(out, err)
                return (process.terminationStatus, stdout, stderr)
            }
        }
        for step in scene.steps {
            let done = try await shell(step)
            try #require(done.status == 0, "\(step): \(done.stderr)")
        }
        let result = try await shell(example.line)
        let printed = (result.stdout + result.stderr).replacing(#/pid [0-9]+/#, with: "pid 4242")
        let lines = printed.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
        #expect(lines.dropLast(lines.last == "" ? 1 : 0) == ArraySlice(example.output),
                "\(example.testDescription)\nprints:\n\(printed)")
    }
}

// MARK: - What the help claims

/// The help's claims that the binary cannot show by an example: durations
/// and sizes the code defines, each compared with its constant wherever the
/// help (and so the man pages made from it) or README states it, and words
/// that were once false, which no help may say again.
extension DocExampleTests {
    /// Each visible command's help as the binary dumps it, by command
    /// (`estimator watch`): its abstract, discussion and every option's
    /// help, whitespace runs made one space.
    static let helpTexts: [String: String] = {
        guard let dump = try? EstimatorProcess.run("--experimental-dump-help"),
              let json = try? JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any],
              let root = json["command"] as? [String: Any] else { return [:] }
        var texts: [String: String] = [:]
        func visit(_ command: [String: Any], path: [String]) {
            let path = path + [command["commandName"] as? String ?? ""]
            var parts = [command["abstract"] as? String, command["discussion"] as? String]
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                parts += [argument["abstract"] as? String, argument["discussion"] as? String]
            }
            texts[path.joined(separator: " ")] = oneLine(parts.compactMap { $0 }.joined(separator: "\n"))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] where sub["shouldDisplay"] as? Bool ?? true {
                visit(sub, path: path)
            }
        }
        visit(root, path: [])
        return texts
    }()

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A number the help or a doc states, with the value the code gives it.
    struct Claim: CustomTestStringConvertible, Sendable {
        /// `estimator join`, or a doc's path from the repository.
        let place: String
        /// Where the number is: a pattern whose one group is its digits.
        let pattern: String
        let value: Int

        var testDescription: String { "\(place): \(pattern) = \(value)" }
    }

    static let claims: [Claim] = {
        let schedule = RadioSchedule.standard
        let finding = Int(schedule.roomFinding.components.seconds)
        let listening = Int(schedule.roomListening.components.seconds)
        let confirming = Int(schedule.roomConfirming.components.seconds)
        let timer = Countdown.longest / 60
        let once = Int(WatchViewer.onceListening.components.seconds)
        return [
            Claim(place: "estimator join", pattern: #"finds a room, which takes (\d+) s"#, value: finding),
            Claim(place: "estimator join", pattern: #"listens for (\d+) s"#, value: listening),
            // The listening lasts twice as long at most (`RoomSearch.isDoneListening`).
            Claim(place: "estimator join", pattern: #"up to (\d+) s while others choosing"#, value: listening * 2 + confirming),
            Claim(place: "estimator join", pattern: #"listens for \d+ s \(up to (\d+) s\)"#, value: listening * 2),
            Claim(place: "estimator join", pattern: #"for (\d+) s more"#, value: confirming),
            Claim(place: "estimator join", pattern: #"below the range for (\d+) s"#,
                  value: Int(SignalFloor.loseAfter.components.seconds)),
            Claim(place: "estimator join", pattern: #"cut to the (\d+) bytes"#, value: PersonName.maxUTF8Count),
            Claim(place: "estimator packet encode", pattern: #"cut to the (\d+) bytes"#, value: PersonName.maxUTF8Count),
            Claim(place: "estimator round", pattern: #"up to (\d+)m"#, value: timer),
            Claim(place: "estimator reveal", pattern: #"up to (\d+)m"#, value: timer),
            Claim(place: "estimator watch", pattern: #"--once listens for (\d+) s"#, value: once),
            Claim(place: "estimator watch", pattern: #"Listen for (\d+) s and exit"#, value: once),
            Claim(place: "README.md", pattern: #"The first `join` listens for (\d+) s"#, value: finding),
            Claim(place: "docs/PROTOCOL.md", pattern: #"Looking for a room nearby \((\d+) s\)"#, value: finding),
            Claim(place: "docs/PROTOCOL.md", pattern: #"\*\*Choosing\*\* \((\d+) s\)"#, value: listening),
            Claim(place: "docs/PROTOCOL.md", pattern: #"\*\*Confirming\*\* \((\d+) s"#, value: confirming),
        ]
    }()

    /// The text a claim's place names.
    static func text(of place: String) -> String? {
        if let help = helpTexts[place] { return help }
        return (try? String(contentsOf: repository.appendingPathComponent(place), encoding: .utf8)).map(oneLine)
    }

    @Test(arguments: DocExampleTests.claims)
    func theNumberIsTheCodes(_ claim: Claim) throws {
        let text = try #require(Self.text(of: claim.place), "no help or doc \(claim.place)")
        let numbers = try text.matches(of: Regex(claim.pattern)).map { $0.output[1].substring.map(String.init) }
        #expect(!numbers.isEmpty, "\(claim.place) no longer says \(claim.pattern): say it again, or change the claim")
        for number in numbers { #expect(number == String(claim.value), "\(claim.place): \(claim.pattern)") }
    }

    /// The stale time: `--stale`'s default as the help prints it (the
    /// command line's), the peer table's own default and what README tells
    /// people are one.
    @Test func theStaleTimeIsOneEverywhere() throws {
        let stale = String(PeerTable().staleAfter.components.seconds)
        for command in ["estimator join", "estimator watch"] {
            let help = try #require(Self.helpTexts[command])
            let defaults = try help.matches(of: Regex(#"shown stale, 1 to 3600\. \(default: (\d+)\)"#))
                .map { $0.output[1].substring.map(String.init) }
            #expect(defaults == [stale], "\(command)")
        }
        let readme = try #require(Self.text(of: "README.md"))
        let said = try readme.matches(of: Regex(#"(?:turns stale after|has not been heard for) (\d+) s"#))
            .map { $0.output[1].substring.map(String.init) }
        #expect(said.count == 2 && said.allSatisfy { $0 == stale }, "README says \(said)")
    }

    /// Words once in the help that were false: a round's title and its
    /// agreed estimate travel with the round's meeting to every laptop
    /// (docs/PROTOCOL.md, Meeting), which also holds the timer, and
    /// `watch --once` on a pipe prints lines, not the table.
    static let falsehoods = [
        "it is not sent", "on your machine", "your session runs it", "prints the table after listening",
        "print the table once and exit",
    ]

    @Test func noHelpSaysWhatWasFalse() {
        #expect(Self.helpTexts.count >= 15, "commands dumped: \(Self.helpTexts.keys.sorted())")
        for (command, text) in Self.helpTexts {
            for falsehood in Self.falsehoods {
                #expect(!text.localizedCaseInsensitiveContains(falsehood), "\(command) --help says \"\(falsehood)\"")
            }
        }
    }
}

import Foundation
import Testing

/// `estimator round` as a person types it, against sessions on a fake bluetoothd.
@Suite(.timeLimit(.minutes(2))) struct RoundCommandTests {
    @Test func theNextRoundClearsMyCardAndShowsItsTitle() async throws {
        let sandbox = try await SessionSandbox.start()
        #expect(try await sandbox.run("round").status == 69, "no session")
        try await sandbox.run("join", "--channel", "3", "--name", "Ann")
        try await sandbox.run("pick", "8")
        let round = try await sandbox.run("round", "  ABC-1   login  ")
        #expect(round.status == 0, "\(round.stderr)")
        #expect(round.stdout == "round 1 (ABC-1 login) began in channel 3; cards cleared\n")
        let status = try await sandbox.run("status")
        #expect(status.stdout.contains("as Ann, no card yet\nround 1 (ABC-1 login); "), "\(status.stdout)")
        let json = try await sandbox.run("status", "--json")
        #expect(json.stdout.contains(#""round":1,"title":"ABC-1 login""#), "\(json.stdout)")
        #expect(try await sandbox.run("round").stdout == "round 2 began in channel 3; cards cleared\n")
        try await sandbox.run("leave")
    }

    /// A short meeting on one laptop: the stories come from the backlog,
    /// each is settled by `settle` (one vote alone is no consensus), and
    /// the history exports both.
    @Test func roundsTakeTheBacklogsStoriesAndTheAgreedEstimatesAreExported() async throws {
        let sandbox = try await SessionSandbox.start()
        #expect(try await sandbox.run("settle", "5").status == 69, "no session")
        let stories = sandbox.root + "/stories.txt"
        try "ABC-1 Login with passkeys\nExport the estimates\n".write(toFile: stories, atomically: true, encoding: .utf8)
        #expect(try await sandbox.run("backlog", stories).status == 0)
        try await sandbox.run("join", "--channel", "3", "--name", "Ann")

        var round = try await sandbox.run("round")
        #expect(round.stdout == "round 1 (ABC-1 Login with passkeys) began in channel 3; cards cleared; story 1 of 2\n", "\(round.stderr)")
        let early = try await sandbox.run("settle", "8")
        #expect(early.status == 64)
        #expect(early.stderr == "Error: Nothing to settle in channel 3: round 1 is not revealed yet; `estimator reveal` shows its cards.\n")
        try await sandbox.run("pick", "5")
        try await sandbox.run("reveal")
        let unsure = try await sandbox.run("settle", "unsure")
        #expect(unsure.status == 64 && unsure.stderr == "Error: ? is no estimate; settle on a number or a size the team agreed on.\n")
        let settled = try await sandbox.run("settle", "8")
        #expect(settled.status == 0 && settled.stdout == "round 1 (ABC-1 Login with passkeys) settled at 8\n")

        round = try await sandbox.run("round")
        #expect(round.stdout == "round 2 (Export the estimates) began in channel 3; cards cleared; story 2 of 2\n")
        try await sandbox.run("pick", "3")
        try await sandbox.run("reveal")
        let alone = try await sandbox.run("settle")
        #expect(alone.status == 64 && alone.stderr == "Error: Round 2 (Export the estimates) has no consensus (one vote, 3, agrees with nobody); "
            + "give the card the team agreed on, as `estimator settle 3`.\n", "one vote agrees with nobody")
        #expect(try await sandbox.run("settle", "3").stdout == "round 2 (Export the estimates) settled at 3\n")
        round = try await sandbox.run("round")
        #expect(round.stdout == "round 3 began in channel 3; cards cleared; "
            + "every story of the backlog has an agreed estimate (`estimator backlog` lists them)\n")
        try await sandbox.run("leave")

        let csv = try await sandbox.run("history", "--csv", "--since", "today")
        #expect(try #require(HistoryCommandTests.parseCSV(csv.stdout)) == [
            ["Issue key", "Summary", "Story Points"],
            ["ABC-1", "Login with passkeys", "8"],
        ])
        #expect(csv.stderr == "left out 1 story: 1 without a key; `--csv --all` writes every story.\n")
        let all = try await sandbox.run("history", "--csv", "--all", "--since", "today")
        let rows = try #require(HistoryCommandTests.parseCSV(all.stdout))
        #expect(rows.map { Array($0.prefix(6)) } == [
            ["Issue key", "Summary", "Story Points", "Median", "Mean", "Cards"],
            ["ABC-1", "Login with passkeys", "8", "5", "5", "Ann=5"],
            ["", "Export the estimates", "3", "3", "3", "Ann=3"],
        ])
        #expect(try await sandbox.run("backlog").stdout.hasPrefix("\(stories): 2 of 2 stories estimated; every story has an agreed estimate\n"))
    }

    @Test func aTimerIsStartedWithTheRoundOrForTheRoundUnderWay() async throws {
        let sandbox = try await SessionSandbox.start()
        try await sandbox.run("join", "--channel", "3", "--name", "Ann")
        let round = try await sandbox.run("round", "ABC-1", "--timer", "90s")
        #expect(round.stdout == "round 1 (ABC-1) began in channel 3; cards cleared; the timer reveals it in 1m30s\n", "\(round.stderr)")
        let later = try await sandbox.run("reveal", "--in", "2m")
        #expect(later.stdout == "the timer reveals round 1 in channel 3 in 2m, unless everyone votes first\n", "\(later.stderr)")
        #expect(try await sandbox.run("reveal").stdout == "round 1 revealed in channel 3 without you\n", "Ann, who typed it, did not vote")
        let again = try await sandbox.run("reveal", "--in", "1m")
        #expect(again.status == 64)
        #expect(again.stderr == "Error: Nothing to reveal in channel 3: round 1 is revealed already.\n")
        try await sandbox.run("leave")
    }

    @Test func aTitleIsOneLineOfReasonableLength() async throws {
        let sandbox = try await SessionSandbox.start()
        try await sandbox.run("join", "--name", "Ann")
        let long = try await sandbox.run("round", String(repeating: "x", count: 121))
        #expect(long.status == 64)
        #expect(long.stderr == "Error: The title is 121 bytes long; give at most 120. See 'estimator round --help' for more information.\n")
        let control = try await sandbox.run("round", "ABC\u{1B}[2J")
        #expect(control.status == 64)
        #expect(!control.stderr.contains("\u{1B}"))
        #expect(try await sandbox.run("status").stdout.contains("no card yet\n0 people"), "no round was started")
        try await sandbox.run("leave")
    }
}

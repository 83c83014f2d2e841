import Testing

/// The command a mistyped name most likely meant, over the real binary:
/// within two edits (a swap of neighbours counts as one), or one it starts;
/// hidden commands are never suggested.
@Suite struct CommandSuggestionTests {
    @Test(arguments: [("pik", "pick"), ("stauts", "status"), ("wat", "watch"), ("histroy", "history")])
    func typosFindTheNearestCommand(typed: String, meant: String) throws {
        let run = try EstimatorProcess.run(typed)
        #expect(run.status == 64)
        #expect(run.stderr.contains("'\(typed)' is not an estimator command; did you mean '\(meant)'?"))
    }

    @Test func farFromEveryCommandSuggestsNone() throws {
        let run = try EstimatorProcess.run("xyzzy")
        #expect(run.status == 64)
        #expect(run.stderr == "Error: 'xyzzy' is not an estimator command. See 'estimator --help' for more information.\n")
    }

    @Test func hiddenCommandsAreNeverSuggested() throws {
        for typed in ["sesion", "top-levl"] {
            let run = try EstimatorProcess.run(typed)
            #expect(run.status == 64)
            #expect(!run.stderr.contains("did you mean"), "\(typed): \(run.stderr)")
        }
    }
}

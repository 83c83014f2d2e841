@testable import estimator
import Testing

/// The command a mistyped name most likely meant (`estimator pik 8`).
@Suite struct CommandSuggestionTests {
    @Test func typosFindTheNearestCommand() {
        let names = ["join", "pick", "watch", "status", "leave", "doctor", "packet"]
        #expect(CommandSuggestion.nearest(to: "pik", among: names) == "pick")
        #expect(CommandSuggestion.nearest(to: "stauts", among: names) == "status")
        #expect(CommandSuggestion.nearest(to: "wat", among: names) == "watch")
        #expect(CommandSuggestion.nearest(to: "xyzzy", among: names) == nil)
    }

    @Test func onlyVisibleCommandsAreSuggested() {
        let names = CommandSuggestion.visibleNames(of: Estimator.self)
        #expect(names.contains("pick") && names.contains("history"))
        #expect(!names.contains("session") && !names.contains("help") && !names.contains("top-level"))
    }
}

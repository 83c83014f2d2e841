import DBusTestSupport
import Foundation
import Testing

/// `watch` on a real terminal: `script` gives it a pseudo-terminal, so it
/// draws on the alternate screen and reads `q` as a person types it.
@Suite(.timeLimit(.minutes(2))) struct WatchTerminalTests {
    @Test func quittingLeavesTheLastTableOnTheNormalScreen() async throws {
        let sandbox = try await SessionSandbox.start()
        try await sandbox.run("join", "--channel", "4", "--name", "Ann")
        try await sandbox.run("pick", "5")
        let (process, input, out, err) = try terminalWatch("", sandbox)
        // Typed once the table is on the screen.
        let seen = try await read(out) { $0.contains("Ann (you)") }
        input.fileHandleForWriting.write(Data("q".utf8))
        let (rest, errText) = try await offPool { process.finish(out, err) }
        #expect(process.terminationStatus == 0, "\(errText)")
        let screen = seen + rest
        let leave = try #require(screen.range(of: "\u{1B}[?1049l", options: .backwards), "the alternate screen was left")
        let after = screen[leave.upperBound...]
        #expect(after.contains(" channel 4 · 1 person · 1 voted"), "\(after)")
        #expect(after.contains("Ann (you)"))
        #expect(!after.contains("\u{1B}[?1049h"), "the last table is printed on the normal screen")
        try await sandbox.run("leave")
    }

    /// `watch` (with `arguments`) on a pseudo-terminal of 80×24 in `sandbox`,
    /// an xterm in a UTF-8 locale unless `environment` says otherwise.
    private func terminalWatch(_ arguments: String, _ sandbox: SessionSandbox, environment overrides: [String: String] = [:]) throws -> (ChildProcess, input: Pipe, out: Pipe, err: Pipe) {
        var environment = sandbox.environment
        environment["TERM"] = "xterm"
        environment["LANG"] = "C.UTF-8"
        let input = Pipe(), out = Pipe(), err = Pipe()
        let process = try ChildProcess(
            "/usr/bin/script", ["-qfec", "stty cols 80 rows 24; '\(EstimatorProcess.executable.path)' watch \(arguments)", "/dev/null"],
            environment: environment.merging(overrides) { $1 }, input: input, output: out, error: err)
        return (process, input, out, err)
    }

    /// Reads `out` until what it has written satisfies `done`; returns it all.
    private func read(_ out: Pipe, until done: (String) -> Bool) async throws -> String {
        var seen = Data()
        while !done(String(decoding: seen, as: UTF8.self)) {
            let chunk = try await offPool { out.fileHandleForReading.availableData }
            try #require(!chunk.isEmpty, "watch ended first: \(String(decoding: seen, as: UTF8.self))")
            seen += chunk
        }
        return String(decoding: seen, as: UTF8.self)
    }

    @Test func theBoardShowsTheRoundAndTheBellRingsOnceAtTheReveal() async throws {
        let sandbox = try await SessionSandbox.start()
        try await sandbox.run("join", "--channel", "4", "--name", "Ann")
        try await sandbox.run("round", "ABC-7", "--timer", "5m")
        let (process, input, out, err) = try terminalWatch("--board", sandbox)
        var screen = try await read(out) { $0.contains("waiting for Ann") }
        #expect(screen.contains("ABC-7"), "the round's title heads the board")
        #expect(screen.contains("reveal in 5:00") || screen.contains("reveal in 4:5"), "the timer")
        #expect(screen.contains("┌"), "a large card")
        #expect(!screen.contains("\u{7}"))
        try await sandbox.run("pick", "8")
        // Ann alone: her vote reveals once the room has been heard (4 s after the join).
        screen += try await read(out) { $0.contains("one vote: 8") && $0.contains("\u{7}") }
        input.fileHandleForWriting.write(Data("q".utf8))
        let (rest, errText) = try await offPool { process.finish(out, err) }
        #expect(process.terminationStatus == 0, "\(errText)")
        screen += rest
        #expect(screen.filter { $0 == "\u{7}" }.count == 1, "one bell, however often the board is redrawn")
        #expect(!screen.contains("▶"), "one vote settles nothing: the chart marks no row")
        try await sandbox.run("leave")
    }

    @Test func quietIsRememberedAndRingsNoBell() async throws {
        let sandbox = try await SessionSandbox.start()
        try await sandbox.run("join", "--channel", "4", "--name", "Ann")
        try await sandbox.run("round", "ABC-8")
        let (process, input, out, err) = try terminalWatch("--board --quiet", sandbox)
        var screen = try await read(out) { $0.contains("waiting for Ann") }
        #expect(try String(contentsOfFile: sandbox.configFile, encoding: .utf8).contains(#""quiet":true"#))
        try await sandbox.run("pick", "5")
        screen += try await read(out) { $0.contains("one vote: 5") }
        input.fileHandleForWriting.write(Data("q".utf8))
        let (rest, errText) = try await offPool { process.finish(out, err) }
        #expect(process.terminationStatus == 0, "\(errText)")
        #expect(!(screen + rest).contains("\u{7}"))
        try await sandbox.run("leave")
        let alone = try await sandbox.run("watch", "--board")
        #expect(alone.status == 64)
        #expect(alone.stderr == "Error: No session is running to say which channel the board shows; add --channel N.\n")
    }

    @Test func aDumbTerminalInTheCLocaleGetsPlainASCIILines() async throws {
        let sandbox = try await SessionSandbox.start()
        try await sandbox.run("join", "--channel", "4", "--name", "전수열")
        let (process, _, out, err) = try terminalWatch("--once", sandbox, environment: ["TERM": "dumb", "LC_ALL": "C"])
        let (text, errText) = try await offPool { process.finish(out, err) }
        #expect(process.terminationStatus == 0, "\(errText)")
        #expect(text.contains("radio: advertising and scanning"), "\(text)")
        #expect(!text.contains("\u{1B}"), "no cursor movement, no color: \(text)")
        #expect(text.utf8.allSatisfy { $0 < 0x80 }, "ASCII only: \(text)")
        try await sandbox.run("leave")
    }
}

extension WatchTerminalTests {
    /// `watch --once` on a pseudo-terminal in `sandbox`: what it printed.
    static func onceOnATerminal(_ sandbox: SessionSandbox) async throws -> String {
        let (process, _, out, err) = try WatchTerminalTests().terminalWatch("--once", sandbox)
        let (text, errText) = try await offPool { process.finish(out, err) }
        #expect(process.terminationStatus == 0, "\(errText)")
        return text
    }
}

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", "'\(EstimatorProcess.executable.path)' watch", "/dev/null"]
        var environment = sandbox.environment
        environment["TERM"] = "xterm"
        process.environment = environment
        let input = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Typed once the table is on the screen.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("Ann (you)") {
            let chunk = try await offPool { out.fileHandleForReading.availableData }
            try #require(!chunk.isEmpty, "watch ended before drawing: \(String(decoding: seen, as: UTF8.self))")
            seen += chunk
        }
        input.fileHandleForWriting.write(Data("q".utf8))
        let (rest, errText) = try await offPool { process.finish(out, err) }
        #expect(process.terminationStatus == 0, "\(errText)")
        let screen = String(decoding: seen, as: UTF8.self) + rest
        let leave = try #require(screen.range(of: "\u{1B}[?1049l", options: .backwards), "the alternate screen was left")
        let after = screen[leave.upperBound...]
        #expect(after.contains(" channel 4 · 1 person · 1 voted"), "\(after)")
        #expect(after.contains("Ann (you)"))
        #expect(!after.contains("\u{1B}[?1049h"), "the last table is printed on the normal screen")
        try await sandbox.run("leave")
    }

    @Test func aDumbTerminalInTheCLocaleGetsPlainASCIILines() async throws {
        let sandbox = try await SessionSandbox.start()
        try await sandbox.run("join", "--channel", "4", "--name", "전수열")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", "'\(EstimatorProcess.executable.path)' watch --once", "/dev/null"]
        var environment = sandbox.environment
        environment["TERM"] = "dumb"
        environment["LC_ALL"] = "C"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardInput = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (text, errText) = try await offPool { process.finish(out, err) }
        #expect(process.terminationStatus == 0, "\(errText)")
        #expect(text.contains("radio: advertising and scanning"), "\(text)")
        #expect(!text.contains("\u{1B}"), "no cursor movement, no color: \(text)")
        #expect(text.utf8.allSatisfy { $0 < 0x80 }, "ASCII only: \(text)")
        try await sandbox.run("leave")
    }
}

import DBusTestSupport
import Foundation

/// The built `estimator` binary, run as a person or a script would run it.
struct EstimatorProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// SwiftPM puts the product next to the test bundle.
    static let executable: URL = {
        let tests = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
        return tests.deletingLastPathComponent().appendingPathComponent("estimator")
    }()

    static func run(_ arguments: String...) throws -> Result {
        try run(arguments: arguments)
    }

    /// Runs estimator to the end with `input` on its standard input (end of
    /// file after it); with `environment`, in that environment instead of
    /// this process's; through `wrapper` (a program and its arguments, which
    /// runs estimator), if given. Blocks: off the pool, or in a test that
    /// needs nothing from the pool meanwhile.
    static func run(arguments: [String], through wrapper: [String] = [], input: String = "",
                    environment: [String: String]? = nil) throws -> Result {
        let command = wrapper + [executable.path] + arguments
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        let process = try ChildProcess(command[0], Array(command.dropFirst()), environment: environment,
                                       input: stdin, output: out, error: err)
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let (stdout, stderr) = process.finish(out, err)
        return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}

extension Pipe {
    /// One line of what the child wrote (with its newline), read byte by byte
    /// so nothing after it is taken from the pipe.
    func readLine() throws -> String {
        var line: [UInt8] = []
        while line.last != 0x0A, let byte = try fileHandleForReading.read(upToCount: 1)?.first { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }
}

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
    /// runs estimator), if given.
    static func run(arguments: [String], through wrapper: [String] = [], input: String = "",
                    environment: [String: String]? = nil) throws -> Result {
        let command = wrapper + [executable.path] + arguments
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
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

extension Process {
    /// Reads the child's output and error to their ends, then waits for it:
    /// reading first, so a full pipe cannot block the child.
    func finish(_ out: Pipe, _ err: Pipe) -> (stdout: String, stderr: String) {
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        waitUntilExit()
        return (String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

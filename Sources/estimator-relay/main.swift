import ArgumentParser
import EstimatorKit
import Glibc

// estimator-relay: started by an `estimator` session that has a relay
// (docs/ARCHITECTURE.md, Relay); not meant to be run by hand.
let arguments: RelayArguments
do {
    arguments = try RelayArguments.parse()
} catch {
    // Help exits 0 as ArgumentParser writes it; a usage error is one line
    // and where the help is, exit 64.
    guard RelayArguments.exitCode(for: error) == .validationFailure else { RelayArguments.exit(withError: error) }
    var message = RelayArguments.message(for: error).split(separator: "\n").first.map(String.init) ?? ""
    if !message.hasSuffix(".") && !message.hasSuffix("?") { message += "." }
    let line = Array("estimator-relay: \(TerminalText.sanitize(message)) See 'estimator-relay --help'.\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(ExitCode.validationFailure.rawValue)
}
do {
    let process = try RelayProcess(arguments)
    exit(process.run())
} catch {
    // The session waits for one line on the ready descriptor: the failure
    // goes there too, so `join` reports it with its code.
    if let fd = arguments.readyFD {
        let reply = Array((ControlReply(exitCode: error.code, message: error.sentence).serialized + "\n").utf8)
        _ = reply.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
    let line = Array(("estimator-relay: \(error.sentence)\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(error.code)
}

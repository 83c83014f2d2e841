import EstimatorKit
import Glibc

// estimator-relay: started by an `estimator` session that has a relay
// (docs/ARCHITECTURE.md, Relay); not meant to be run by hand.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    let process = try RelayProcess(try RelayArguments(arguments))
    exit(process.run())
} catch {
    // The session waits for one line on the ready descriptor: the failure
    // goes there too, so `join` reports it with its code.
    if let index = arguments.firstIndex(of: "--ready-fd"), index + 1 < arguments.count, let fd = Int32(arguments[index + 1]) {
        let reply = Array((ControlReply(exitCode: error.code, message: error.sentence).serialized + "\n").utf8)
        _ = reply.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
    let line = Array(("estimator-relay: \(error.sentence)\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(error.code)
}

import Glibc

// estimator-relay: started by an `estimator` session that has a relay
// (docs/ARCHITECTURE.md, Relay); not meant to be run by hand.
do {
    let process = try RelayProcess(try RelayArguments(Array(CommandLine.arguments.dropFirst())))
    exit(process.run())
} catch {
    let line = Array(("estimator-relay: \(error.sentence)\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(error.code)
}

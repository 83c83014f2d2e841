import EstimatorKit
import Glibc
import SessionDaemon

/// The start-up fast path for `estimator pick CARD [--adapter hciN]`: a
/// pick is typed many times a meeting and must feel instant, so its plain
/// forms skip building ArgumentParser's command tree, and do what
/// `PickCommand` does. Anything else (help, other options, a card or an
/// adapter that does not read) falls through to the full parser, which
/// reports usage errors.
enum QuickCommand {
    static func runIfPossible() {
        // Read from argv itself: `CommandLine.arguments` decodes every
        // argument first, a third of a pick's own start-up.
        let argv = CommandLine.unsafeArgv
        guard CommandLine.argc >= 2, let command = argv[1], strcmp(command, "pick") == 0 else { return }
        let rest = (2..<Int(CommandLine.argc)).map { String(cString: argv[$0]!) }
        let typed: String, adapter: String?
        switch rest.count {
        case 1 where !rest[0].hasPrefix("-"): (typed, adapter) = (rest[0], nil)
        case 3 where rest[1] == "--adapter" && !rest[0].hasPrefix("-"): (typed, adapter) = (rest[0], rest[2])
        case 3 where rest[0] == "--adapter" && !rest[2].hasPrefix("-"): (typed, adapter) = (rest[2], rest[1])
        default: return
        }
        // An address is asked of bluetoothd: the full command does that.
        if let adapter, !AdapterName.isValid(adapter) { return }
        guard let card = try? Card.argument(typed) else { return }
        do {
            let (_, client) = try SessionLocator.connect(adapter: adapter)
            try PickCommand.pick(card, with: client)
            exit(0)
        } catch {
            StandardError.write("Error: \(error.sentence)")
            exit(error.code.rawValue)
        }
    }
}

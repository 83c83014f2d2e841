import Glibc

/// The start-up fast path for `estimator pick CARD [--adapter hciN]`: a
/// pick is typed many times a meeting and must feel instant, so its plain
/// forms skip building ArgumentParser's command tree. Anything else (help,
/// unknown options) falls through to the full parser, which also reports
/// usage errors.
enum QuickCommand {
    static func runIfPossible() {
        // Read from argv itself: `CommandLine.arguments` decodes every
        // argument first, a third of a pick's own start-up.
        let argv = CommandLine.unsafeArgv
        guard CommandLine.argc >= 2, let command = argv[1], strcmp(command, "pick") == 0 else { return }
        let rest = (2..<Int(CommandLine.argc)).map { String(cString: argv[$0]!) }
        let card: String, adapter: String?
        switch rest.count {
        case 1 where !rest[0].hasPrefix("-"): (card, adapter) = (rest[0], nil)
        case 3 where rest[1] == "--adapter" && !rest[0].hasPrefix("-"): (card, adapter) = (rest[0], rest[2])
        case 3 where rest[0] == "--adapter" && !rest[2].hasPrefix("-"): (card, adapter) = (rest[2], rest[1])
        default: return
        }
        // An address is asked of bluetoothd: the full command does that.
        if let adapter, !AdapterName.isValid(adapter) { return }
        do {
            try PickCommand.pick(card: card, adapter: adapter)
            exit(0)
        } catch {
            StandardError.write("Error: \(error.sentence)")
            exit(error.code.rawValue)
        }
    }
}

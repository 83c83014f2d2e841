import ArgumentParser
import SessionDaemon

extension AdapterChoice: CommandLineValue {
    static func argument(_ text: String) throws(ValidationError) -> AdapterChoice {
        if AdapterName.isValid(text) { return .name(text) }
        if AdapterName.isAddress(text) { return .address(text.uppercased()) }
        throw ValidationError(AdapterName.rule + ".")
    }

    /// The kernel's adapters; a shell offers them after `--adapter`.
    static var completion: CompletionKind {
        .shellCommand("ls /sys/class/bluetooth 2>/dev/null | grep -x 'hci[0-9]*'")
    }
}

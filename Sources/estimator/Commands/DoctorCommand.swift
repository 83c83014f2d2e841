import ArgumentParser
import EstimatorKit
import Glibc

/// `estimator doctor`: what stands between this machine and a session.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the Bluetooth chain and say what to fix.",
        discussion: """
            Checks, in order: the D-Bus system bus, bluetoothd (org.bluez) on it, \
            the D-Bus policy, the adapters, the chosen adapter powered, rfkill, the \
            kernel's view of the controller, and free LE advertising slots. Each \
            line is ✔ or ✘ with the fix. Exits 0 when everything passes, 69 otherwise.

            Examples:
              estimator doctor
              estimator doctor --adapter hci1
            """)

    @Option(help: "The adapter to check (default: the one `join` remembered, else the first powered one).")
    var adapter: String?

    func run() async throws {
        if let adapter, !AdapterName.isValid(adapter) { throw AdapterName.invalid(adapter) }
        let remembered = try? Config.load()
        let chosen = adapter ?? remembered?.adapter
        // A session without Bluetooth needs none of the Bluetooth links.
        var checks = chosen == AdapterName.none ? [] : await Doctor(adapter: chosen).run()
        checks += RelayDoctor.checks(remembered: remembered?.relay)
        let unicode = Self.localeIsUTF8
        for check in checks { for line in check.lines(unicode: unicode) { print(line) } }
        let failed = checks.filter { if case .failed = $0.outcome { true } else { false } }.count
        guard failed > 0 else { return print("everything estimator needs is in place") }
        print(failed == 1 ? "1 problem; fix it and run `estimator doctor` again."
                          : "\(failed) problems; fix the first one first, then run `estimator doctor` again.")
        throw ExitCode(UserError.Code.unavailable.rawValue)
    }

    /// Whether the locale's characters are UTF-8 (else the marks are ASCII).
    static var localeIsUTF8: Bool {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { Environment.value($0) }.first ?? ""
        let lowered = name.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }
}

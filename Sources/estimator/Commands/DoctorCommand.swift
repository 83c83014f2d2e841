import ArgumentParser
import Diagnostics
import EstimatorKit
import Glibc
import SessionDaemon
import Watch

/// `estimator doctor`: what stands between this machine and a session.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the Bluetooth chain and say what to fix.",
        discussion: """
            Checks, in order: the D-Bus system bus, bluetoothd (org.bluez) on it, \
            the D-Bus policy, the adapters, the chosen adapter powered, the \
            kernel's view of the controller, rfkill, and free LE advertising \
            slots; then the relay, and a running session's history when it could \
            not be saved (not saved since 14:02, with why). Each line is ✔ or ✘ with the fix; a check that needs a failed \
            one is not run and says which (·). Exits 0 when everything passes, \
            69 otherwise.

            Examples:
              $ estimator doctor
              $ estimator doctor --adapter hci1
              $ estimator doctor --json | jq -r '.checks[] | select(.result == "failed") | .fix'

            JSON keys, in this order: ok (true when everything passed), problems \
            (the number of failed checks), checks (in the order above, each with \
            check (its name, as in the text), result ("passed", "failed" or \
            "skipped"), finding (string), fix (string, or null unless failed)).
            """)

    @Option(help: "The adapter to check, by name or address (default: the one `join` remembered, else the first powered one).")
    var adapter: AdapterChoice?

    @Flag(help: "Print exactly one JSON object instead of lines.")
    var json = false

    func run() async throws {
        let remembered = try? Config.load()
        let chosen = adapter?.text ?? remembered?.adapter
        // A session without Bluetooth needs none of the Bluetooth links.
        var checks = chosen == AdapterName.none ? [] : await Doctor(adapter: chosen).run()
        checks += RelayDoctor.checks(remembered: remembered?.relay)
        checks += HistoryDoctor.checks()
        let failed = checks.filter { if case .failed = $0.outcome { true } else { false } }.count
        if json {
            print(Self.json(checks, failed: failed))
        } else {
            let unicode = !TerminalKind.ascii
            for check in checks { for line in check.lines(unicode: unicode) { print(line) } }
            if failed == 0 {
                print("everything estimator needs is in place")
            } else {
                print(failed == 1 ? "1 problem; fix it and run `estimator doctor` again."
                                  : "\(failed) problems; fix the first one first, then run `estimator doctor` again.")
            }
        }
        if failed > 0 { throw ExitCode(UserError.Code.unavailable.rawValue) }
    }

    static func json(_ checks: [DoctorCheck], failed: Int) -> String {
        JSONValue.object([
            JSONMember("ok", .bool(failed == 0)),
            JSONMember("problems", .int(failed)),
            JSONMember("checks", .array(checks.map(\.json))),
        ]).text
    }
}

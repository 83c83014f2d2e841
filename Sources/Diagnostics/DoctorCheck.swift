import EstimatorKit

/// One link of the chain `doctor` checks, and what it found.
package struct DoctorCheck: Equatable, Sendable {
    /// How a check came out.
    package enum Outcome: Equatable, Sendable {
        case passed
        /// Broken; `fix` says what to do.
        case failed(fix: String)
        /// Not checked because an earlier link is broken.
        case skipped
    }

    /// What is checked: `system bus`, `adapter powered`.
    let name: String
    /// What was found, in words (may quote BlueZ or the kernel).
    package let finding: String
    package let outcome: Outcome

    static func pass(_ name: String, _ finding: String) -> DoctorCheck {
        DoctorCheck(name: name, finding: finding, outcome: .passed)
    }

    /// A check named `name` that failed: what it found, and the fix.
    package static func fail(_ name: String, _ finding: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, finding: finding, outcome: .failed(fix: fix))
    }

    static func skip(_ name: String, needs: String) -> DoctorCheck {
        DoctorCheck(name: name, finding: "not checked: needs \(needs)", outcome: .skipped)
    }

    package var passed: Bool { outcome == .passed }

    /// Its lines for a person: the mark, the name and the finding, then the
    /// fix indented. Everything is sanitised, since findings quote what
    /// bluetoothd and the kernel said.
    package func lines(unicode: Bool) -> [String] {
        let mark: String
        switch outcome {
        case .passed: mark = unicode ? "✔" : "ok"
        case .failed: mark = unicode ? "✘" : "XX"
        case .skipped: mark = unicode ? "·" : "--"
        }
        var lines = [TerminalText.sanitize("\(mark) \(name): \(finding)")]
        if case let .failed(fix) = outcome { lines.append(TerminalText.sanitize("    fix: \(fix)")) }
        return lines
    }

    /// Its JSON object for `doctor --json`: `check`, `result`, `finding`, `fix`
    /// (sanitised like the lines).
    package var json: JSONValue {
        let (result, fix): (String, String?)
        switch outcome {
        case .passed: (result, fix) = ("passed", nil)
        case let .failed(text): (result, fix) = ("failed", text)
        case .skipped: (result, fix) = ("skipped", nil)
        }
        return .object([
            JSONMember("check", .string(TerminalText.sanitize(name))),
            JSONMember("result", .string(result)),
            JSONMember("finding", .string(TerminalText.sanitize(finding))),
            JSONMember("fix", .string(fix.map(TerminalText.sanitize))),
        ])
    }
}

/// A failure explained to a person: one sentence saying what went wrong and
/// what to do, and the sysexits code the process ends with.
struct UserError: Error, Equatable, Sendable, CustomStringConvertible {
    /// sysexits(3) codes used by estimator.
    enum Code: Int32, Sendable {
        case usage = 64, dataError = 65, unavailable = 69, software = 70, cantCreate = 73, noPermission = 77
    }

    let code: Code
    let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }

    static func badAdapterName(_ name: String) -> UserError {
        UserError(.usage, "\(name.debugDescription) is not an adapter name; adapters are named like hci0.")
    }
}

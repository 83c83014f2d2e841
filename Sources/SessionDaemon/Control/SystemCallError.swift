import Glibc

/// A failed system call: which operation, and `errno` at the time.
package struct SystemCallError: Error, CustomStringConvertible {
    let code: Int32
    let operation: String

    init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// Captures the current `errno`.
    init(_ operation: String) { self.init(code: errno, operation: operation) }

    package var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

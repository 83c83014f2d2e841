import Glibc

/// A Unix-domain socket address (`sockaddr_un`) for a filesystem path.
package struct UnixAddress {
    private var storage = sockaddr_un()

    /// The address of the socket at `path`; refused when the path is too long for one.
    package init(path: String) throws(SystemCallError) {
        storage.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard bytes.count < capacity else {
            throw SystemCallError(code: ENAMETOOLONG, operation: "socket path \(path)")
        }
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    package mutating func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}

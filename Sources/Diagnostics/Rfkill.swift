import Glibc

/// The kernel's radio kill switches for Bluetooth, from sysfs
/// (`/sys/class/rfkill/rfkillN/{type,soft,hard}`).
package struct RfkillSwitch: Equatable, Sendable {
    /// `rfkill0`.
    let name: String
    /// Blocked in software (`rfkill block`).
    let isSoftBlocked: Bool
    /// Blocked by a hardware switch.
    let isHardBlocked: Bool

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(name: String, isSoftBlocked: Bool, isHardBlocked: Bool) {
        self.name = name
        self.isSoftBlocked = isSoftBlocked
        self.isHardBlocked = isHardBlocked
    }

    /// Every switch of type `bluetooth` under `directory`; none when the
    /// folder is absent (no rfkill in this kernel).
    package static func bluetooth(under directory: String = "/sys/class/rfkill") -> [RfkillSwitch] {
        guard let folder = opendir(directory) else { return [] }
        defer { closedir(folder) }
        var switches: [RfkillSwitch] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix("."), read("\(directory)/\(name)/type") == "bluetooth" else { continue }
            switches.append(RfkillSwitch(
                name: name, isSoftBlocked: read("\(directory)/\(name)/soft") == "1",
                isHardBlocked: read("\(directory)/\(name)/hard") == "1"))
        }
        return switches.sorted { $0.name < $1.name }
    }

    /// A small sysfs file's first line.
    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = Glibc.read(fd, &bytes, bytes.count)
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count].prefix { $0 != 0x0A }, as: UTF8.self)
    }
}

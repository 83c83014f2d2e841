import CBluetooth

#if canImport(Glibc)
import Glibc
#endif

/// A Bluetooth controller as the kernel sees it (libbluetooth's `hci_devinfo`),
/// independent of bluetoothd: what `doctor` sets against BlueZ's view.
public struct KernelController: Sendable, Hashable {
    /// The device index: 0 for `hci0`.
    public let index: Int
    /// `hci0`.
    public let name: String
    /// The controller's address, `AA:BB:CC:DD:EE:FF` (all zeros before it is set up).
    public let address: String
    /// The kernel's HCI_UP flag: the device is open.
    public let isUp: Bool
    /// The kernel's HCI_RUNNING flag: the controller answers.
    public let isRunning: Bool
    /// rfkill's soft block (a switch in software), nil if the kernel has no rfkill for it.
    public let isSoftBlocked: Bool?
    /// rfkill's hard block (a physical switch), nil if the kernel has no rfkill for it.
    public let isHardBlocked: Bool?

    /// Why the kernel's controllers cannot be listed.
    public struct Unavailable: Error, Hashable, Sendable, CustomStringConvertible {
        /// The `errno` of the failure.
        public let code: Int32
        public let description: String
    }

    /// Every controller the kernel has.
    ///
    /// Throws `Unavailable` when the kernel cannot be asked: no Bluetooth in the kernel
    /// (`EAFNOSUPPORT`, as on machines without the module), or the socket is refused.
    public static func all() throws(Unavailable) -> [KernelController] {
        var controllers: [KernelController] = []
        for index in 0..<Int(HCI_MAX_DEV) {
            var info = hci_dev_info()
            if hci_devinfo(Int32(index), &info) == 0 {
                controllers.append(KernelController(info))
                continue
            }
            let code = errno
            switch code {
            case ENODEV: continue  // no controller with this index
            case EAFNOSUPPORT, EPROTONOSUPPORT:
                throw Unavailable(code: code, description: "this kernel has no Bluetooth support (AF_BLUETOOTH is missing)")
            default:
                throw Unavailable(code: code, description: "cannot ask the kernel about Bluetooth controllers: \(String(cString: strerror(code)))")
            }
        }
        return controllers
    }

    /// The controller called `name` (`hci0`), or nil if the kernel has none by that name.
    public static func named(_ name: String) throws(Unavailable) -> KernelController? {
        try all().first { $0.name == name }
    }

    init(_ info: hci_dev_info) {
        var info = info
        index = Int(info.dev_id)
        name = withUnsafeBytes(of: &info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var text = [CChar](repeating: 0, count: 18)
        ba2str(&info.bdaddr, &text)
        address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        isUp = Self.flag(HCI_UP, in: info.flags)
        isRunning = Self.flag(HCI_RUNNING, in: info.flags)
        (isSoftBlocked, isHardBlocked) = Self.rfkill(of: name)
    }

    private static func flag(_ bit: Int, in flags: UInt32) -> Bool {
        flags & (1 << UInt32(bit)) != 0
    }

    /// rfkill's state from sysfs: `/sys/class/bluetooth/hciN/rfkillM/{soft,hard}`.
    private static func rfkill(of name: String) -> (Bool?, Bool?) {
        let folder = "/sys/class/bluetooth/\(name)"
        guard let directory = opendir(folder) else { return (nil, nil) }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard entryName.hasPrefix("rfkill") else { continue }
            return (readFlag("\(folder)/\(entryName)/soft"), readFlag("\(folder)/\(entryName)/hard"))
        }
        return (nil, nil)
    }

    private static func readFlag(_ path: String) -> Bool? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        return fgetc(file) == Int32(UInt8(ascii: "1"))
    }
}

// Our receiver for the D-Bus signal benchmark (Benchmarks/DBusSignals/run.sh drives it).
//
//   dbus-signal-bench ADDRESS COUNT [REPORT...]
//
// Subscribes to PropertiesChanged, prints "ready", then decodes COUNT signals up to a
// typed Swift value and prints "<messages per second> <resident kB> <checksum> <CPU
// microseconds per message>", timed from the first signal to the last. For each REPORT count it also prints
// "rss <count> <resident kB>" when that many signals have been handled.
import DBus

#if canImport(Glibc)
import Glibc
#endif

/// What a BlueZ client wants out of a Device1 PropertiesChanged signal.
struct DevicePropertiesChanged: Sendable {
    let interface: String
    let name: String?
    let rssi: Int16?
    let invalidated: [String]

    /// Reads `sa{sv}as` in one pass, keeping only the two properties it wants: no
    /// dictionary of every changed property is built (as a BlueZ client would decode it).
    init(_ message: Message) throws {
        var reader = message.makeReader()
        interface = try reader.read(String.self)
        var name: String?
        var rssi: Int16?
        try reader.readDictionary(keyType: String.self, valueType: .variant) { key, entry throws(DBusError) in
            let value = try entry.read(Value.self)
            switch key {
            case "Name": name = value.string
            case "RSSI": rssi = value.decode(as: Int16.self)
            default: break
            }
        }
        invalidated = try reader.read([String].self)
        guard reader.isAtEnd else { throw DBusError.invalidArguments("extra arguments") }
        self.name = name
        self.rssi = rssi
    }
}

func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// User and system CPU time of the whole process (every thread), in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Resident set size from /proc/self/statm (second field, in pages).
func residentKilobytes() -> Int {
    let fd = open("/proc/self/statm", O_RDONLY)
    guard fd >= 0 else { return 0 }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let count = read(fd, &buffer, buffer.count)
    guard count > 0 else { return 0 }
    let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
    guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// One line to stdout, unbuffered: the driver script waits for these lines.
func say(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(1, $0, strlen($0)) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let count = Int(arguments[2]) else {
    say("usage: dbus-signal-bench ADDRESS COUNT [REPORT...]")
    exit(64)
}
let reports = Set(arguments.dropFirst(3).compactMap { Int($0) })

let bus = try await Connection.connect(address: arguments[1])
let signals = try await bus.signals(
    matching: MatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged"),
    decode: DevicePropertiesChanged.init)
say("ready")

var received = 0
var checksum = 0
var start = 0.0
var cpuStart = 0.0
for try await change in signals {
    received += 1
    if received == 1 {
        start = seconds()
        cpuStart = cpuSeconds()
    }
    checksum += (change.name?.utf8.count ?? 0) + Int(change.rssi ?? 0) + change.interface.utf8.count + change.invalidated.count
    if reports.contains(received) {
        say("rss \(received) \(residentKilobytes())")
    }
    if received == count { break }
}
let elapsed = seconds() - start
let cpuPerSignal = (cpuSeconds() - cpuStart) * 1e6 / Double(received - 1)
say("\(Int(Double(received - 1) / elapsed)) \(residentKilobytes()) \(checksum) \((cpuPerSignal * 100).rounded() / 100)")

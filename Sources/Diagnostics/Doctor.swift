import BlueZ
import Glibc
import Radio
import RadioScheduling
import SessionDaemon

/// The checks behind `estimator doctor`, link by link along the chain
/// estimator needs: system bus → bluetoothd → D-Bus policy → adapters → the
/// chosen adapter powered → the kernel's controller → rfkill → advertising
/// slots → the radio schedule a session would run. A broken link skips the
/// checks that need it, and says which.
package struct Doctor {
    /// The adapter asked for by name or address (`--adapter`, else the one
    /// `join` remembered); nil: the first powered one.
    let adapter: String?
    /// Where the kernel's rfkill switches are.
    var rfkillDirectory = "/sys/class/rfkill"

    /// A doctor for `adapter`, reading rfkill switches in `rfkillDirectory`.
    package init(adapter: String?, rfkillDirectory: String = "/sys/class/rfkill") {
        self.adapter = adapter
        self.rfkillDirectory = rfkillDirectory
    }

    package func run() async -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        let bluez: BlueZ?
        do {
            bluez = try await BlueZ.system()
            checks.append(.pass("system bus", "reachable"))
        } catch {
            bluez = nil
            checks.append(.fail("system bus", "not reachable (\(Self.innermost(String(describing: error))))",
                                fix: "start D-Bus (`sudo systemctl start dbus`), or check DBUS_SYSTEM_BUS_ADDRESS"))
        }
        let chosen = await bluezChecks(bluez, into: &checks)
        let (kernel, kernelHasBluetooth) = kernelCheck(chosen)
        checks.append(kernel)
        // Without Bluetooth in the kernel there are no switches to read: a
        // pass would say nothing.
        checks.append(kernelHasBluetooth ? rfkillCheck() : .skip("rfkill", needs: "Bluetooth in the kernel"))
        checks.append(slotsCheck(chosen))
        checks.append(scheduleCheck(chosen))
        return checks
    }

    /// bluetoothd, policy, adapters, power; the adapter chosen, if any.
    private func bluezChecks(_ bluez: BlueZ?, into checks: inout [DoctorCheck]) async -> Adapter? {
        guard let bluez else {
            for name in ["org.bluez", "D-Bus policy", "adapters", "adapter powered"] {
                checks.append(.skip(name, needs: "the system bus"))
            }
            return nil
        }
        guard await isRunning(bluez) else {
            checks.append(.fail("org.bluez", "bluetoothd is not running",
                                fix: "`sudo systemctl start bluetooth`"))
            for name in ["D-Bus policy", "adapters", "adapter powered"] { checks.append(.skip(name, needs: "bluetoothd")) }
            return nil
        }
        checks.append(.pass("org.bluez", "bluetoothd is on the system bus"))
        let adapters: [Adapter]
        do {
            adapters = try await bluez.adapters()
            checks.append(.pass("D-Bus policy", "this user may talk to bluetoothd"))
        } catch let error as BlueZError where error.kind == .accessDenied {
            checks.append(.fail("D-Bus policy", "bluetoothd refused us: \(error.message)",
                                fix: "add yourself to the group the policy allows (`sudo usermod -aG bluetooth $USER`, then log in again), or see /etc/dbus-1/system.d/bluetooth.conf"))
            for name in ["adapters", "adapter powered"] { checks.append(.skip(name, needs: "access to bluetoothd")) }
            return nil
        } catch {
            checks.append(.fail("D-Bus policy", "asking bluetoothd for its objects failed: \(error)",
                                fix: "restart bluetoothd (`sudo systemctl restart bluetooth`)"))
            for name in ["adapters", "adapter powered"] { checks.append(.skip(name, needs: "an answer from bluetoothd")) }
            return nil
        }
        guard !adapters.isEmpty else {
            checks.append(.fail("adapters", "bluetoothd has no adapter",
                                fix: "plug in a Bluetooth adapter, or load its driver (`sudo modprobe btusb`)"))
            checks.append(.skip("adapter powered", needs: "an adapter"))
            return nil
        }
        let names = adapters.map(\.name).joined(separator: ", ")
        let chosen = adapter.map { name in adapters.first { $0.matches(name) } }
            ?? adapters.first(where: \.isPowered) ?? adapters.first
        guard let chosen else {
            checks.append(.fail("adapters", "no adapter \(adapter ?? "") among \(names)",
                                fix: "choose one of them with --adapter"))
            checks.append(.skip("adapter powered", needs: "the adapter"))
            return nil
        }
        checks.append(.pass("adapters", "\(names); using \(chosen.name)"))
        checks.append(chosen.isPowered
            ? .pass("adapter powered", "\(chosen.name) is on")
            : .fail("adapter powered", "\(chosen.name) is powered off",
                    fix: "`bluetoothctl power on` (or `sudo btmgmt --index \(chosen.name) power on`)"))
        return chosen
    }

    private func isRunning(_ bluez: BlueZ) async -> Bool {
        do {
            for try await state in try await bluez.presence() { return state != .absent }
        } catch {}
        return false
    }

    private func rfkillCheck() -> DoctorCheck {
        let switches = RfkillSwitch.bluetooth(under: rfkillDirectory)
        if let hard = switches.first(where: \.isHardBlocked) {
            return .fail("rfkill", "\(hard.name) is blocked by a hardware switch",
                         fix: "turn on the wireless switch or key of this machine")
        }
        if let soft = switches.first(where: \.isSoftBlocked) {
            return .fail("rfkill", "\(soft.name) is blocked", fix: "`sudo rfkill unblock bluetooth`")
        }
        return .pass("rfkill", switches.isEmpty ? "no kill switch for Bluetooth" : "not blocked")
    }

    /// The kernel's view of the controller (libbluetooth's `hci_devinfo`),
    /// set against BlueZ's `Powered`; and whether the kernel has Bluetooth at all.
    private func kernelCheck(_ chosen: Adapter?) -> (DoctorCheck, hasBluetooth: Bool) {
        let name = chosen?.name ?? adapter ?? "hci0"
        let controller: KernelController?
        do {
            controller = try KernelController.all().first { $0.name == name || $0.address.uppercased() == name.uppercased() }
        } catch {
            // The line is the kernel's already: its finding need not say so again.
            let finding = [EAFNOSUPPORT, EPROTONOSUPPORT].contains(error.code)
                ? "no Bluetooth support (AF_BLUETOOTH is missing)" : error.description
            return (.fail("kernel", finding,
                          fix: "load the Bluetooth modules (`sudo modprobe bluetooth btusb`), or use a kernel with Bluetooth"), false)
        }
        guard let controller else {
            return (.fail("kernel", "no controller \(name)",
                          fix: "plug the adapter in again; `sudo dmesg | grep -i bluetooth` says why it is missing"), true)
        }
        let state = controller.isUp ? (controller.isRunning ? "up and running" : "up, not running") : "down"
        guard let chosen else { return (.pass("kernel", "\(controller.name) is \(state)"), true) }
        let agrees = (controller.isUp && controller.isRunning) == chosen.isPowered
        return (agrees
            ? .pass("kernel", "\(controller.name) is \(state), as BlueZ says")
            : .fail("kernel", "\(controller.name) is \(state) but BlueZ says it is \(chosen.isPowered ? "powered" : "off")",
                    fix: "restart bluetoothd (`sudo systemctl restart bluetooth`) so it sees the controller again"), true)
    }

    private func slotsCheck(_ chosen: Adapter?) -> DoctorCheck {
        guard let chosen else { return .skip("advertising slots", needs: "an adapter") }
        // BlueZ offers no advertising on a powered-off adapter: that is the power check's finding.
        guard chosen.isPowered else { return .skip("advertising slots", needs: "\(chosen.name) powered on") }
        guard let capacity = chosen.advertising else {
            return .fail("advertising slots", "\(chosen.name) cannot advertise (BlueZ offers no LEAdvertisingManager1)",
                         fix: "use an LE-capable (Bluetooth 4.0+) adapter, and power it on")
        }
        guard capacity.free > 0 else {
            return .fail("advertising slots", "all \(capacity.supported) slots of \(chosen.name) are taken",
                         fix: "stop other advertisers (`bluetoothctl advertise off`)")
        }
        return .pass("advertising slots", "\(capacity.free) of \(capacity.supported) free")
    }

    /// libdbus's own words from an error that says "the system bus is not
    /// reachable: cannot connect to the system bus: …": the line already says
    /// which link failed.
    static func innermost(_ text: String) -> String {
        var rest = Substring(text)
        while let marker = rest.firstRange(of: "system bus") {
            let after = rest[marker.upperBound...].drop { $0 != ":" }
            guard after.hasPrefix(":") else { break }
            rest = after.dropFirst().drop { $0 == " " }
        }
        return String(rest)
    }

    /// The schedule a session would run on the chosen adapter
    /// (`RadioSchedule` fitted to its controller, with `ESTIMATOR_SCHEDULE`),
    /// and why: its mode follows from what the controller can do.
    private func scheduleCheck(_ chosen: Adapter?) -> DoctorCheck {
        let name = "radio schedule"
        guard let chosen, let capacity = chosen.advertising else { return .skip(name, needs: "an adapter that advertises") }
        let configured: RadioSchedule
        do { configured = try RadioSchedule.fromEnvironment() } catch {
            return .fail(name, error.sentence, fix: "correct or unset \(RadioSchedule.variable)")
        }
        let schedule = configured.fitted(to: capacity)
        let mode = schedule.mode ?? .strict
        let cadence = "restarts every \(Self.ms(schedule.restartEvery)) ± \(Self.ms(schedule.jitter)), "
            + (schedule.pausesScan ? "scanning paused for each change and announcement, announced again at each restart"
                                   : "changes made while scanning, the advertisement left alone between changes")
            + (Environment.value(RadioSchedule.variable) == nil ? "" : " (\(RadioSchedule.variable) is set)")
        let why = mode.reason(adapter: chosen.name, capacity: capacity, forced: configured.mode != nil)
        return .pass(name, "\(mode.rawValue): \(cadence); \(why)")
    }

    private static func ms(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}

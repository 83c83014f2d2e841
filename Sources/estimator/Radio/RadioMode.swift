import BlueZ

/// How a radio shares its controller between its advertisement and its
/// scan: the part of its schedule that follows from what the controller can
/// do (docs/ARCHITECTURE.md, Radio schedule).
enum RadioMode: String, Sendable {
    /// Scanning stops around every advertisement change, and every
    /// discovery restart announces the advertisement again. A controller
    /// with legacy advertising refuses the new random address a change
    /// needs while it scans, and Linux keeps its advertising off while it
    /// scans actively, so it is on the air mostly in those gaps.
    case strict
    /// Changes are made while scanning, and a discovery restart leaves the
    /// advertisement alone: an extended advertising set takes its random
    /// address while the controller scans, and keeps it until the next
    /// change, so a phone nearby sees one device, not a new one per restart.
    case light

    /// The least disruptive mode `capacity`'s controller allows.
    static func fitting(_ capacity: AdvertisingCapacity) -> RadioMode {
        capacity.extended ? .light : .strict
    }

    /// Why a radio on `adapter` with `capacity` runs this mode, in words
    /// for `doctor`; `forced` when `ESTIMATOR_SCHEDULE` chose it.
    func reason(adapter: String, capacity: AdvertisingCapacity, forced: Bool) -> String {
        let controller = capacity.extended
            ? "\(adapter) has extended advertising (its set takes a new random address while scanning)"
            : "\(adapter) advertises with legacy commands (it refuses a new random address while scanning)"
        guard !forced else { return "chosen by \(RadioSchedule.variable); \(controller)" }
        return controller
    }
}

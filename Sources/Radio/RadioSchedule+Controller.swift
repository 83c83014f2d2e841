import BlueZ
import RadioScheduling

/// What a schedule takes from the controller it runs on: the mode its
/// advertising capacity allows.
extension RadioSchedule {
    /// This schedule in the mode `capacity`'s controller allows, unless
    /// `ESTIMATOR_SCHEDULE` chose one.
    package func fitted(to capacity: AdvertisingCapacity) -> RadioSchedule {
        var fitted = self
        fitted.mode = mode ?? RadioMode.fitting(capacity)
        return fitted
    }
}

extension RadioMode {
    /// The least disruptive mode `capacity`'s controller allows.
    package static func fitting(_ capacity: AdvertisingCapacity) -> RadioMode {
        capacity.extended ? .light : .strict
    }

    /// Why a radio on `adapter` with `capacity` runs this mode, in words
    /// for `doctor`; `forced` when `ESTIMATOR_SCHEDULE` chose it.
    package func reason(adapter: String, capacity: AdvertisingCapacity, forced: Bool) -> String {
        let controller = capacity.extended
            ? "\(adapter) has extended advertising (its set takes a new random address while scanning)"
            : "\(adapter) advertises with legacy commands (it refuses a new random address while scanning)"
        guard !forced else { return "chosen by \(RadioSchedule.variable); \(controller)" }
        return controller
    }
}

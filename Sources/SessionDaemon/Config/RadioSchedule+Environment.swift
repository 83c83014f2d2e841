import EstimatorKit
import RadioScheduling

/// The schedule a process runs: `ESTIMATOR_SCHEDULE` read from its environment.
extension RadioSchedule {
    /// `standard` with the overrides of `ESTIMATOR_SCHEDULE`, if set.
    package static func fromEnvironment() throws(UserError) -> RadioSchedule {
        guard let text = Environment.value(variable) else { return .standard }
        return try parse(text)
    }
}

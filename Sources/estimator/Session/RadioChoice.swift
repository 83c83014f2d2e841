/// Which radio a session process uses.
///
/// `ESTIMATOR_TEST_RADIO` selects an in-memory radio for tests that run
/// whole estimator processes on machines without Bluetooth: `memory` (goes
/// "on the air" nowhere) or `unpowered` (fails as a powered-off adapter).
enum RadioChoice {
    static func make(adapter: String) throws(RadioError) -> any SessionRadio {
        switch Environment.value("ESTIMATOR_TEST_RADIO") {
        case "memory": return MemoryRadio()
        case "unpowered": return MemoryRadio(startFailure: .adapterPoweredOff(adapter))
        default: return BlueZRadio(adapter: adapter)
        }
    }
}

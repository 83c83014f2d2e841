import BlueZ
import EstimatorKit
import Synchronization

/// `watch` without a session: its own discovery on one adapter, advertising
/// nothing, with the session's service UUID, restart cadence and look-again
/// rule, so it hears what a session would.
final class ScanFeed: WatchFeed {
    /// The adapter scanning, `hci1`.
    let adapterName: String
    private let discovery: Discovery
    private let schedule: RadioSchedule
    private let pump = Mutex<Task<Void, Never>?>(nil)
    /// When the scan was last restarted for a quiet peer: once a tick at
    /// most, as a session does, however often the watch redraws.
    private let lookedAgain = Mutex<ContinuousClock.Instant?>(nil)

    private init(adapterName: String, discovery: Discovery, schedule: RadioSchedule) {
        self.adapterName = adapterName
        self.discovery = discovery
        self.schedule = schedule
    }

    /// Starts scanning on `selector` (`hci1`), or on the first powered adapter.
    /// Fails with one sentence and a sysexits code before anything is shown.
    static func open(adapter selector: String?) async throws(UserError) -> ScanFeed {
        let schedule = try RadioSchedule.fromEnvironment()
        do {
            let bluez = try await BlueZ.system()
            let adapter = try await bluez.adapter(selector)
            guard adapter.isPowered else { throw RadioError.adapterPoweredOff(adapter.name) }
            let discovery = try await adapter.discover(
                serviceUUIDs: [BlueZRadio.serviceUUID], schedule: schedule.listening)
            return ScanFeed(adapterName: adapter.name, discovery: discovery, schedule: schedule)
        } catch let error as RadioError {
            throw UserError(error.code, error.description)
        } catch {
            guard let selector else {
                if (error as? BlueZError)?.kind == .adapterNotFound {
                    throw UserError(.unavailable, "There is no Bluetooth adapter; plug one in (see `estimator doctor`).")
                }
                let radio = BlueZRadio.radioError(error, adapter: "the adapter")
                throw UserError(radio.code, radio.description)
            }
            let radio = BlueZRadio.radioError(error, adapter: selector)
            throw UserError(radio.code, radio.description)
        }
    }

    func start(_ sink: AsyncStream<WatchInputs.Input>.Continuation) {
        let (discovery, adapter) = (discovery, adapterName)
        sink.yield(.line(.radio("scanning on \(adapter)")))
        let task = Task {
            do {
                for try await event in discovery {
                    guard case let .sighting(sighting) = event, let name = sighting.localName else { continue }
                    sink.yield(.line(.heard(localName: Array(name.utf8), rssi: sighting.rssi, from: sighting.advertiser)))
                }
            } catch {
                let radio = BlueZRadio.radioError(error, adapter: adapter)
                sink.yield(.ended(UserError(radio.code, "Scanning stopped: \(radio.description)")))
            }
        }
        pump.withLock { $0 = task }
    }

    /// Restarts the scan for a peer quiet for `RadioSchedule.lookAgainAfter`
    /// (see there): a controller that does not repeat an advertiser reports
    /// it again only as a scan starts.
    func quiet(for longest: Duration) {
        guard longest >= schedule.lookAgainAfter else { return }
        let due = lookedAgain.withLock { last in
            let now = ContinuousClock.now
            guard last.map({ now - $0 >= schedule.tick }) ?? true else { return false }
            last = now
            return true
        }
        if due { discovery.lookAgain() }
    }

    func stop() async {
        pump.withLock { $0 }?.cancel()
        await discovery.stop()
    }
}

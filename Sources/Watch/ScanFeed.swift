import BlueZ
import Clocks
import EstimatorKit
import Radio
import RadioScheduling
import SessionCore
import Synchronization

/// `watch` without a session: its own discovery on one adapter, advertising
/// nothing, with the session's service UUID, and the light mode's schedule
/// (restarts without settle or hold), so it hears what a session would.
/// What it hears goes into a room that decides as a session does
/// (`ListeningRoom`), ticked every `schedule.tick`; the watch gets that
/// room's lines, as it would get a session's.
package final class ScanFeed: WatchFeed {
    /// The adapter scanning, `hci1`.
    package let adapterName: String
    private let discovery: Discovery
    private let executor: RadioExecutor
    /// Why a restart failed, which ends the scan as the discovery's end does.
    private let halts: AsyncStream<any Error>
    private let pump = Mutex<Task<Void, Never>?>(nil)
    private let room: Mutex<ListeningRoom>
    private let clock: any SessionClock
    private let tick: Duration

    private init(adapterName: String, discovery: Discovery, executor: RadioExecutor, halts: AsyncStream<any Error>,
                 room: ListeningRoom, clock: any SessionClock, tick: Duration) {
        self.adapterName = adapterName
        self.halts = halts
        self.discovery = discovery
        self.executor = executor
        self.room = Mutex(room)
        self.clock = clock
        self.tick = tick
    }

    /// Starts scanning on `selector` (`hci1`), or on the first powered
    /// adapter, into a room whose peers turn stale after `staleAfter` and
    /// whose cards show as they are picked when `open`. Fails with one
    /// sentence and a sysexits code before anything is shown.
    package static func open(adapter selector: String?, staleAfter: Duration, open: Bool, range: SignalRange = .room,
                             clock: any SessionClock = SystemClock()) async throws(UserError) -> ScanFeed {
        let schedule = try RadioSchedule.fromEnvironment()
        do {
            let bluez = try await BlueZ.system()
            bluez.bus.paceReading(every: schedule.readEvery)
            let adapter = try await bluez.adapter(selector)
            guard adapter.isPowered else { throw RadioError.adapterPoweredOff(adapter.name) }
            let (halts, halted) = AsyncStream.makeStream(of: (any Error).self)
            let executor = RadioExecutor(scheduler: LightScheduler(schedule: schedule), handle: nil, clock: clock) {
                halted.yield($0)
            }
            let discovery = try await adapter.discover(serviceUUIDs: [BlueZRadio.serviceUUID])
            executor.run(on: discovery)
            return ScanFeed(adapterName: adapter.name, discovery: discovery, executor: executor, halts: halts,
                            room: ListeningRoom(staleAfter: staleAfter, open: open, range: range),
                            clock: clock, tick: schedule.tick)
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

    package func start(_ sink: AsyncStream<WatchInputs.Input>.Continuation) {
        let (discovery, adapter, clock, tick) = (discovery, adapterName, clock, tick)
        sink.yield(.line(.radio("scanning on \(adapter)")))
        let halts = halts
        let task = Task {
            // The first of the discovery's end and a failed restart ends the scan.
            let failure = await withTaskGroup(of: (any Error)?.self) { group in
                group.addTask {
                    do {
                        for try await sighting in discovery {
                            guard let name = sighting.localName else { continue }
                            let heard = Heard(localName: Array(name.utf8), rssi: sighting.rssi, advertiser: sighting.advertiser)
                            for line in self.room.withLock({ $0.hear(heard, now: clock.now) }) { sink.yield(.line(line)) }
                        }
                        return nil
                    } catch {
                        return error
                    }
                }
                group.addTask {
                    while (try? await clock.sleep(for: tick)) != nil {
                        for line in self.room.withLock({ $0.tick(now: clock.now) }) { sink.yield(.line(line)) }
                    }
                    return nil
                }
                group.addTask {
                    for await error in halts { return error }
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
            guard let failure else { return }
            let radio = BlueZRadio.radioError(failure, adapter: adapter)
            sink.yield(.ended(UserError(radio.code, "Scanning stopped: \(radio.description)")))
        }
        pump.withLock { $0 = task }
    }

    package func stop() async {
        pump.withLock { $0 }?.cancel()
        executor.close()
        await discovery.stop()
    }
}

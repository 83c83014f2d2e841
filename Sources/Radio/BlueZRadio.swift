import BlueZ
import Clocks
import RadioScheduling
import Synchronization
import Threads

/// The session's radio on BlueZ: one adapter's advertisement handle and
/// discovery, the executor of their schedule (`RadioExecutor`, which the
/// schedule's scheduler drives: this type decides nothing of when), plus
/// the watch that tells the session when bluetoothd or the adapter goes
/// away and comes back (so it re-registers by itself).
package final class BlueZRadio: SessionRadio {
    /// The estimator service UUID (docs/PROTOCOL.md, Advertisement),
    /// advertised and scanned for.
    package static let serviceUUID = "FB3367FD-09F8-4E08-9F6B-07E309FD2576"

    /// The discovery while it runs, and what runs its schedule.
    private struct Scan {
        let discovery: Discovery
        let executor: RadioExecutor
        /// Reports the discovery's end as trouble.
        let end: Task<Void, Never>
    }

    /// The radio while it is started.
    private struct Running {
        let handle: AdvertisementHandle
        /// Reports BlueZ dropping the advertisement as trouble.
        let advertisementEnd: Task<Void, Never>
        /// Nil once scanning stopped for good (the leave's second half).
        var scan: Scan?
    }

    private struct State {
        var bluez: BlueZ?
        var running: Running?
        /// The schedule fitted to the adapter's controller at the last start.
        var schedule: RadioSchedule
        var watch: Task<Void, Never>?
        var stopped = false
        /// Set while org.bluez has no owner: every failure then is that one.
        var bluetoothdAbsent = false
        var take: @Sendable (Reception) -> Void = { _ in }
    }

    let adapterName: String
    package let events: AsyncStream<RadioEvent>
    private let clock: any SessionClock
    private let connect: @Sendable () async throws -> BlueZ
    private let sink: AsyncStream<RadioEvent>.Continuation
    private let state: Mutex<State>

    /// A radio on `adapter`: `schedule` says when the discovery restarts,
    /// how long its gaps last and when an update is announced again, and
    /// is fitted to the controller at each start (`RadioSchedule.fitted`),
    /// which chooses its scheduler; `clock` times it; `connect` reaches
    /// bluetoothd (the system bus).
    package init(adapter: String, schedule: RadioSchedule = .standard, clock: any SessionClock = SystemClock(),
         connect: @escaping @Sendable () async throws -> BlueZ = { try await BlueZ.system() }) {
        adapterName = adapter
        self.clock = clock
        self.connect = connect
        state = Mutex(State(schedule: schedule))
        (events, sink) = AsyncStream.makeStream(of: RadioEvent.self)
    }

    /// The schedule in use: fitted to the controller once started.
    package var schedule: RadioSchedule { state.withLock { $0.schedule } }

    /// The light mode changes the advertisement while scanning; the strict
    /// mode stops the scan around every change.
    package var changesWhileScanning: Bool { schedule.mode == .light }

    package func onReception(_ take: @escaping @Sendable (Reception) -> Void) { state.withLock { $0.take = take } }

    package func start(localName: [UInt8], parts: [[UInt8]]) async throws(RadioError) {
        await tearDown()
        do {
            let bluez = try await connection()
            let adapter = try await bluez.adapter(adapterName)
            guard adapter.isPowered else { throw RadioError.adapterPoweredOff(adapterName) }
            let name = String(decoding: localName, as: UTF8.self)
            let (schedule, take) = state.withLock { state in
                state.schedule = state.schedule.fitted(to: adapter.advertising ?? AdvertisingCapacity(supported: 0, active: 0))
                return (state.schedule, state.take)
            }
            let handle = try await adapter.advertise(Advertisement(serviceUUIDs: [Self.serviceUUID], localName: name,
                                                                   manufacturerData: .meeting(parts)))
            let adapterName = self.adapterName
            let executor = RadioExecutor(scheduler: schedule.scheduler(), handle: handle, clock: clock) { [weak self] in
                self?.report(Self.radioError($0, adapter: adapterName))
            }
            let discovery: Discovery
            let clock = self.clock
            do {
                discovery = try await adapter.discover(serviceUUIDs: [Self.serviceUUID]) { sighting in
                    executor.heard()
                    guard let name = sighting.localName else { return }
                    take(Reception(localName: Array(name.utf8), rssi: sighting.rssi, received: clock.elapsed,
                                   advertiser: sighting.advertiser, part: sighting.manufacturerData))
                }
            } catch {
                executor.close()
                await handle.stop()
                throw error
            }
            executor.run(on: discovery)
            let running = Running(handle: handle, advertisementEnd: pump(handle),
                                  scan: Scan(discovery: discovery, executor: executor, end: pump(discovery)))
            state.withLock { $0.running = running }
            startWatching(bluez)
        } catch let error as RadioError {
            throw error
        } catch {
            throw Self.radioError(error, adapter: adapterName)
        }
    }

    @discardableResult
    package func update(localName: [UInt8], parts: [[UInt8]]) async throws(RadioError) -> RadioUpdate {
        let (handle, executor) = state.withLock { ($0.running?.handle, $0.running?.scan?.executor) }
        guard let handle else { throw .advertisementReleased }
        let name = String(decoding: localName, as: UTF8.self)
        do {
            if let executor { return try await executor.update(localName: name, parts: parts) }
            // Nothing scans any more (the leave): the change alone.
            try await handle.update(localName: name, manufacturerData: .meeting(parts))
            let sent = clock.elapsed
            try await handle.synchronize()
            return RadioUpdate(scanStop: .zero, sent: sent)
        } catch {
            throw Self.radioError(error, adapter: adapterName)
        }
    }

    package func ride(parts: [[UInt8]]) {
        let (handle, executor) = state.withLock { ($0.running?.handle, $0.running?.scan?.executor) }
        // A loss of the radio is reported by its events; the parts are not worth another.
        if let executor {
            try? executor.ride(parts: parts)
        } else {
            // Nothing scans any more (the leave): the parts wait for its announcement.
            try? handle?.awaitAnnouncement(.meeting(parts))
        }
    }

    package func stopScanning() async {
        let scan = state.withLock { state in
            defer { state.running?.scan = nil }
            return state.running?.scan
        }
        guard let scan else { return }
        scan.end.cancel()
        await scan.executor.stopScanning()
        scan.executor.close()
    }

    package func lookAgain() { state.withLock { $0.running?.scan?.executor }?.lookAgain() }

    package func keepListening(for duration: Duration) {
        state.withLock { $0.running?.scan?.executor }?.keepListening(for: duration)
    }

    package func stop() async {
        let watch = state.withLock { state in
            state.stopped = true
            return state.watch
        }
        watch?.cancel()
        await tearDown()
        sink.finish()
    }

    /// Stops the current advertisement and discovery, if any.
    private func tearDown() async {
        let running = state.withLock { state in
            defer { state.running = nil }
            return state.running
        }
        guard let running else { return }
        running.advertisementEnd.cancel()
        if let scan = running.scan {
            scan.end.cancel()
            scan.executor.close()
            await scan.discovery.stop()
        }
        await running.handle.stop()
    }

    private func connection() async throws -> BlueZ {
        if let bluez = state.withLock({ $0.bluez }) { return bluez }
        let bluez = try await connect()
        bluez.bus.paceReading(every: schedule.readEvery)
        state.withLock { $0.bluez = bluez }
        return bluez
    }

    /// The end of the discovery as trouble (sightings go to `take`, see start).
    private func pump(_ discovery: Discovery) -> Task<Void, Never> {
        let adapter = adapterName
        return Task(executorPreference: SessionLoop.current) { [weak self] in
            do {
                for try await _ in discovery {}
            } catch {
                if !Task.isCancelled { self?.report(Self.radioError(error, adapter: adapter)) }
            }
        }
    }

    /// BlueZ dropping the advertisement, as trouble.
    private func pump(_ handle: AdvertisementHandle) -> Task<Void, Never> {
        Task(executorPreference: SessionLoop.current) { [weak self] in
            for await end in handle.events where !Task.isCancelled {
                self?.report(end == .released ? .advertisementReleased : .bluetoothdAbsent)
            }
        }
    }

    /// Tells the session the radio stopped working. bluetoothd going away
    /// ends everything at once (adapters, advertisement, discovery), each
    /// reported by its own task in no set order; the session keeps the last
    /// problem it hears, so while bluetoothd is absent every problem is that.
    private func report(_ problem: RadioError) {
        state.withLock { state in
            _ = sink.yield(.unavailable(state.bluetoothdAbsent ? .bluetoothdAbsent : problem))
        }
    }

    /// Follows bluetoothd's presence and this adapter's comings and goings,
    /// once for the radio's life, and says when the radio can work again:
    /// when bluetoothd returns, and when the adapter is back, powered and
    /// able to advertise (bluetoothd adds its adapters bit by bit after
    /// taking its name; the session restarts only while it has a problem).
    private func startWatching(_ bluez: BlueZ) {
        let sink = sink, adapter = adapterName
        let watch = Task(executorPreference: SessionLoop.current) { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    guard let presence = try? await bluez.presence() else { return }
                    do {
                        for try await change in presence {
                            let absent = change == .absent
                            self?.state.withLock { state in
                                // Back: try at once; if its adapter is not ready
                                // yet, the adapter's return below tries again.
                                if !absent, state.bluetoothdAbsent { sink.yield(.available) }
                                state.bluetoothdAbsent = absent
                                if absent { _ = sink.yield(.unavailable(.bluetoothdAbsent)) }
                            }
                        }
                    } catch {}
                }
                group.addTask {
                    guard let changes = try? await bluez.adapterEvents(named: adapter) else { return }
                    // Whether the adapter could advertise when last heard of.
                    var usable = true
                    do {
                        for try await change in changes {
                            switch change {
                            case let .removed(name) where name == adapter:
                                usable = false
                                self?.report(.adapterNotFound(adapter))
                            case let .added(found) where found.name == adapter,
                                 let .changed(found) where found.name == adapter:
                                if found.isPowered, found.advertising != nil, !usable {
                                    usable = true
                                    sink.yield(.available)
                                } else if !found.isPowered, usable {
                                    usable = false
                                    self?.report(.adapterPoweredOff(adapter))
                                }
                            default: break
                            }
                        }
                    } catch {}
                }
            }
        }
        let previous = state.withLock { state -> Task<Void, Never>? in
            if state.watch != nil || state.stopped { return watch }
            state.watch = watch
            return nil
        }
        previous?.cancel()  // already watching (a re-start): keep the first watch
    }

    /// What a BlueZ failure means to the person who ran `join`.
    package static func radioError(_ error: any Error, adapter: String) -> RadioError {
        guard let error = error as? BlueZError else { return .failed("\(error)") }
        switch error.kind {
        case .busUnavailable: return .systemBusUnavailable
        case .bluetoothdAbsent: return .bluetoothdAbsent
        case .adapterNotFound: return .adapterNotFound(adapter)
        case .notPowered: return .adapterPoweredOff(adapter)
        case .noAdvertisingSlot: return .noAdvertisingSlot(adapter)
        case .accessDenied: return .accessDenied(error.message)
        case .released: return .advertisementReleased
        case .failed: return .failed(error.message)
        }
    }
}

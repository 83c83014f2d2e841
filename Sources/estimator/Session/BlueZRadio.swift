import BlueZ
import Synchronization

/// The session's radio on BlueZ: one adapter's advertisement handle and
/// discovery, plus the watch that tells the session when bluetoothd or the
/// adapter goes away and comes back (so it re-registers by itself).
final class BlueZRadio: SessionRadio {
    /// The estimator service UUID (docs/PROTOCOL.md, Advertisement),
    /// advertised and scanned for.
    static let serviceUUID = "FB3367FD-09F8-4E08-9F6B-07E309FD2576"
    private struct State {
        var bluez: BlueZ?
        var handle: AdvertisementHandle?
        var discovery: Discovery?
        /// The schedule fitted to the adapter's controller at the last start.
        var schedule: RadioSchedule
        var pumps: [Task<Void, Never>] = []
        /// The pending second announcement of the last update.
        var reannounce: Task<Void, Never>?
        var watch: Task<Void, Never>?
        var stopped = false
        /// Set while org.bluez has no owner: every failure then is that one.
        var bluetoothdAbsent = false
        var take: @Sendable (Reception) -> Void = { _ in }
    }

    let adapterName: String
    let events: AsyncStream<RadioEvent>
    private let clock: any RadioClock
    private let connect: @Sendable () async throws -> BlueZ
    private let sink: AsyncStream<RadioEvent>.Continuation
    private let state: Mutex<State>

    /// A radio on `adapter`: `schedule` says when the discovery restarts,
    /// how long its gaps last and when an update is announced again, and
    /// is fitted to the controller at each start (`RadioSchedule.fitted`);
    /// `clock` times it; `connect` reaches bluetoothd (the system bus).
    init(adapter: String, schedule: RadioSchedule = .standard, clock: any RadioClock = ContinuousRadioClock(),
         connect: @escaping @Sendable () async throws -> BlueZ = { try await BlueZ.system() }) {
        adapterName = adapter
        self.clock = clock
        self.connect = connect
        state = Mutex(State(schedule: schedule))
        (events, sink) = AsyncStream.makeStream(of: RadioEvent.self)
    }

    /// The schedule in use: fitted to the controller once started.
    var schedule: RadioSchedule { state.withLock { $0.schedule } }

    func onReception(_ take: @escaping @Sendable (Reception) -> Void) { state.withLock { $0.take = take } }

    func start(localName: [UInt8]) async throws(RadioError) {
        await tearDown()
        do {
            let bluez = try await connection()
            let adapter = try await bluez.adapter(adapterName)
            guard adapter.isPowered else { throw RadioError.adapterPoweredOff(adapterName) }
            let name = String(decoding: localName, as: UTF8.self)
            let schedule = state.withLock { state in
                state.schedule = state.schedule.fitted(to: adapter.advertising ?? AdvertisingCapacity(supported: 0, active: 0))
                return state.schedule
            }
            let handle = try await adapter.advertise(Advertisement(serviceUUIDs: [Self.serviceUUID], localName: name))
            let discovery: Discovery
            let take = state.withLock { $0.take }
            // In the strict mode each restart also re-announces the
            // advertisement, so peers hear it while their scans run: the
            // report a scan start brings races Linux's discovery start (a
            // report just before mgmt "Discovering" is dropped), and Linux
            // keeps a legacy advertiser off the air while it scans, which
            // leaves a steady peer unheard long enough to turn stale.
            let announceAgain: @Sendable () async -> Void = { try? await handle.announceAgain() }
            do {
                discovery = try await adapter.discover(
                    serviceUUIDs: [Self.serviceUUID], schedule: schedule.scan, clock: clock,
                    whileStopped: schedule.pausesScan ? announceAgain : nil
                ) { sighting in
                    guard let name = sighting.localName else { return }
                    take(Reception(localName: Array(name.utf8), rssi: sighting.rssi, received: sighting.time,
                                   advertiser: sighting.advertiser))
                }
            } catch {
                await handle.stop()
                throw error
            }
            let pumps = [pump(discovery), pump(handle)]
            state.withLock { state in
                state.handle = handle
                state.discovery = discovery
                state.pumps = pumps
            }
            startWatching(bluez)
        } catch let error as RadioError {
            throw error
        } catch {
            throw Self.radioError(error, adapter: adapterName)
        }
    }

    @discardableResult
    func update(localName: [UInt8]) async throws(RadioError) -> RadioUpdate {
        // A newer card makes the last one's further announcements pointless.
        let (handle, discovery, schedule) = state.withLock { state in
            state.reannounce?.cancel()
            return (state.handle, state.discovery, state.schedule)
        }
        guard let handle else { throw .advertisementReleased }
        let name = String(decoding: localName, as: UTF8.self)
        // The change itself, timed for the session log.
        let asked = ContinuousClock.now
        let change: @Sendable () async throws -> RadioUpdate = {
            let stopped = ContinuousClock.now
            try await handle.update(localName: name)
            let sent = ContinuousClock.now
            try await handle.synchronize()
            return RadioUpdate(scanStop: stopped - asked, sent: sent)
        }
        let timing: RadioUpdate
        do {
            // Scanning blocks advertisement changes on legacy controllers: see
            // Discovery.pausing.
            if let discovery {
                let pausing = schedule.pausesScan
                timing = pausing ? try await discovery.pausing(settle: schedule.settle, change) : try await change()
                // A peer in its own quiet gap misses that; announce again, once:
                // two announcements bring pick -> seen well under a second, and
                // a third makes it slower, not faster (docs/MEASUREMENTS.md,
                // Tried and dropped).
                let clock = self.clock
                let reannounce = Task {
                    do { try await clock.sleep(for: schedule.reannounceAfter) } catch { return }
                    if pausing {
                        try? await discovery.pausing(settle: schedule.settle) { try await handle.announceAgain() }
                    } else {
                        try? await handle.announceAgain()
                    }
                }
                state.withLock { $0.reannounce = reannounce }
            } else {
                timing = try await change()
            }
        } catch {
            throw Self.radioError(error, adapter: adapterName)
        }
        return timing
    }

    func stopScanning() async {
        // pumps[0] reads the discovery (see start).
        let (discovery, pump, reannounce, handle, schedule) = state.withLock { state in
            defer {
                state.discovery = nil
                state.reannounce = nil
                if !state.pumps.isEmpty { state.pumps.removeFirst() }
            }
            return (state.discovery, state.pumps.first, state.reannounce, state.handle, state.schedule)
        }
        reannounce?.cancel()
        pump?.cancel()
        await discovery?.stop()
        // The scan's end restarts a legacy advertiser (Linux kept it off
        // while scanning); an extended set advertises on untouched, so the
        // light mode starts it again itself.
        if !schedule.pausesScan { try? await handle?.announceAgain() }
    }

    func lookAgain() {
        // In the strict mode peers announce at each of their restarts, which
        // a scan start would not bring: the next restart listens for them
        // instead, until the session stops asking (the peer was heard) a
        // little after its next tick.
        let (discovery, schedule) = state.withLock { ($0.discovery, $0.schedule) }
        if schedule.pausesScan {
            discovery?.listen(for: schedule.tick + schedule.tick / 2)
        } else {
            discovery?.lookAgain()
        }
    }

    func stop() async {
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
        let (handle, discovery, pumps) = state.withLock { state in
            defer {
                state.handle = nil
                state.discovery = nil
                state.pumps = []
            }
            return (state.handle, state.discovery, state.pumps)
        }
        for pump in pumps { pump.cancel() }
        await discovery?.stop()
        await handle?.stop()
    }

    private func connection() async throws -> BlueZ {
        if let bluez = state.withLock({ $0.bluez }) { return bluez }
        let bluez = try await connect()
        state.withLock { $0.bluez = bluez }
        return bluez
    }

    /// The end of the discovery as trouble (sightings go to `take`, see start).
    private func pump(_ discovery: Discovery) -> Task<Void, Never> {
        let adapter = adapterName
        return Task { [weak self] in
            do {
                for try await _ in discovery {}
            } catch {
                if !Task.isCancelled { self?.report(Self.radioError(error, adapter: adapter)) }
            }
        }
    }

    /// BlueZ dropping the advertisement, as trouble.
    private func pump(_ handle: AdvertisementHandle) -> Task<Void, Never> {
        Task { [weak self] in
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
        let watch = Task { [weak self] in
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
                    guard let changes = try? await bluez.adapterEvents() else { return }
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
    static func radioError(_ error: any Error, adapter: String) -> RadioError {
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

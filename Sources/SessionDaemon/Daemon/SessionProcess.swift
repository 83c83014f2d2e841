import Clocks
import Dispatch
import EstimatorKit
import SessionCore
import Glibc
import Radio
import RadioScheduling
import Threads

/// A session as a process: takes the adapter's lock, serves the control
/// socket, runs the session core on the chosen radio, leaves on SIGINT,
/// SIGTERM and SIGHUP, and exits when the session ends.
package struct SessionProcess {
    let adapter: String
    /// The channel, or nil to find a room (docs/PROTOCOL.md, Finding a room).
    let channel: Channel?
    let name: PersonName
    let staleAfter: Duration
    let directory: RuntimeDirectory
    /// Whether to write the log on standard output: not when a foreground
    /// table owns the terminal.
    var logging = true
    /// The relay to start beside the session, if any.
    var relay: RelaySettings?
    /// Present without a vote (`join --observer`).
    var observing = false
    /// My card goes on the air at once, in clear (`--open`).
    var open = false
    /// The cards I may pick (`join --deck`).
    var deck = Deck.app
    /// How far the room reaches (`join --range`).
    var range = SignalRange.room
    /// Makes the adapter's radio on the schedule; tests hand in their own.
    package var makeRadio: @Sendable (String, RadioSchedule) throws(RadioError) -> any SessionRadio = {
        $0 == AdapterName.none ? NoRadio() : BlueZRadio(adapter: $0, schedule: $1)
    }

    /// A process of these fields; `makeRadio` is BlueZ's radio, or none for
    /// the adapter `none`, until a test sets its own.
    package init(adapter: String, channel: Channel?, name: PersonName, staleAfter: Duration, directory: RuntimeDirectory,
                 logging: Bool = true, relay: RelaySettings? = nil, observing: Bool = false, open: Bool = false,
                 deck: Deck = Deck.app, range: SignalRange = .room) {
        self.adapter = adapter
        self.channel = channel
        self.name = name
        self.staleAfter = staleAfter
        self.directory = directory
        self.logging = logging
        self.relay = relay
        self.observing = observing
        self.open = open
        self.deck = deck
        self.range = range
    }

    /// Runs until the session ends. `ready` is told once, with the line
    /// `join` prints (exit 0) and the session's status, or the failure it
    /// reports; the exit code is returned. Given no channel, the session
    /// finds its room first, and `ready` waits for it (control requests,
    /// the relay's too, wait meanwhile). `companion` (the foreground table)
    /// runs alongside once the session is ready; when it returns, the
    /// session leaves.
    ///
    /// Everything runs on a loop of its own (`SessionLoop`): the session's
    /// actors execute there and every task of the session prefers it.
    package func run(ready: (ControlReply) -> Void,
             companion: (@Sendable (Session) async -> Void)? = nil) async -> Int32 {
        let loop = SessionLoop.start()
        return await withTaskExecutorPreference(loop) {
            await run(on: loop, ready: ready, companion: companion)
        }
    }

    private func run(on loop: SessionLoop, ready: (ControlReply) -> Void,
                     companion: (@Sendable (Session) async -> Void)?) async -> Int32 {
        // A file size limit (`ulimit -f`) fails a write (EFBIG), which the
        // history reports as not saved, instead of ending the session.
        signal(SIGXFSZ, SIG_IGN)
        do {
            try directory.prepare()
        } catch {
            ready(ControlReply(error))
            return error.code.rawValue
        }
        let lock: SessionLock?
        do { lock = try SessionLock(path: directory.lockPath(adapter: adapter)) } catch {
            return fail(UserError(.permission, "Cannot lock \(directory.lockPath(adapter: adapter)) (\(error))."), ready)
        }
        guard let lock else {
            // Exit 75: `join` joins the session holding it once it listens.
            return fail(UserError(.temporary, "A session is already running on \(adapter); use `estimator join` to switch it or `estimator leave` to end it."), ready)
        }
        // From here on a start that fails leaves nothing behind (`SessionLock.remove`).
        func failStarting(_ error: UserError, _ ready: (ControlReply) -> Void) -> Int32 {
            lock.remove()
            return fail(error, ready)
        }
        // The lock is ours, so a socket file left here is from a session that died.
        let path = directory.socketPath(adapter: adapter)
        unlink(path)

        let (requests, requestSink) = AsyncStream.makeStream(
            of: (ControlRequest, ControlServer.ClientID, Duration).self)
        let server: ControlServer
        do {
            let clock = SystemClock()
            server = try ControlServer(path: path, loop: loop) { request, client in requestSink.yield((request, client, clock.elapsed)) }
        } catch {
            return failStarting(UserError(.permission, "Cannot open the control socket (\(error))."), ready)
        }
        let schedule: RadioSchedule
        do { schedule = try RadioSchedule.fromEnvironment() } catch {
            await server.stop()
            return failStarting(error, ready)
        }
        let radio: any SessionRadio
        do { radio = try makeRadio(adapter, schedule) } catch {
            await server.stop()
            return failStarting(UserError(error.code, error.description), ready)
        }
        let session = Session(adapter: adapter, channel: channel, name: name, observing: observing, deck: deck,
                              room: Room(staleAfter: staleAfter, dropAfter: schedule.drop, open: open, range: range), radio: radio,
                              clock: SystemClock(), schedule: schedule, pid: getpid(), loop: loop,
                              backlog: { () throws(UserError) in try BacklogFile().progress() },
                              history: { record, deck throws(UserError) in try HistoryFile().save(record, deck: deck) })
        do { try await session.start() } catch {
            await server.stop()
            return failStarting(UserError(error.code, error.description), ready)
        }
        server.start()
        var relayJoined = ""
        if let relay {
            await session.setRelayState("\(relay.url) starting")
            let logging = logging
            let supervisor = RelaySupervisor(settings: relay, socket: path, staleSeconds: staleAfter.components.seconds,
                                             session: session) { if logging { SessionLog.write($0) } }
            switch await supervisor.start() {
            case let .success(reply):
                relayJoined = "; " + reply.message
                // The relay clears my topics when it sees the end; the leave
                // is answered after that.
                await session.onLeave { await supervisor.stop(limit: .seconds(3)) }
            case let .failure(failure):
                await session.leave()
                await server.stop()
                return failStarting(failure, ready)
            }
        }
        let logging = logging
        let signals = SignalWatch(signals: [SIGINT, SIGTERM, SIGHUP], on: loop) {
            if logging { SessionLog.write("signal received: leaving") }
            Task(executorPreference: loop) { await session.leave() }
        }
        if logging {
            await session.onLine { SessionLog.write($0) }
            await session.onTrace { SessionLog.write($0) }
        }
        await withDiscardingTaskGroup { group in
            group.addTask { await session.listen() }
            group.addTask { await session.tick() }
            group.addTask {
                await session.ended()
                server.stopAccepting()
                requestSink.finish()
            }
            // Requests wait in their stream until the room is chosen.
            let choice = await session.chosenRoom()
            let channel = await session.channel
            let joined = choice.map {
                SessionCore.joined($0, name: name, observing: observing, deck: deck, adapter: adapter, pid: getpid())
            } ?? SessionCore.joined(channel: channel, name: name, observing: observing, deck: deck, adapter: adapter, pid: getpid())
            if self.channel == nil, await session.hasEnded {
                ready(ControlReply(UserError(.unavailable, "The session was stopped while it looked for a room; run `estimator join` again.")))
            } else {
                ready(ControlReply(exitCode: 0, message: joined + relayJoined, status: await session.status))
            }
            if let companion {
                group.addTask {
                    await companion(session)
                    await session.leave()
                }
            }
            for await (request, client, received) in requests {
                group.addTask { await Self.serve(request, from: client, received: received, session: session, server: server) }
            }
        }
        // The session has ended: no command finds it from now, the adapter
        // is free, and only then do the clients see their connection close
        // (`leave` waits for that). Every answer, the leave's own included,
        // is queued before the socket goes.
        server.stopAccepting()
        lock.release()
        await server.stop()
        signals.cancel()
        return 0
    }

    private static func serve(_ request: ControlRequest, from client: ControlServer.ClientID,
                              received: Duration, session: Session, server: ControlServer) async {
        if !request.isAnswered {
            _ = await session.handle(request, received: received)
        } else if request == .watch || request == .watchAir || request == .watchOpen {
            server.send(ControlReply(exitCode: 0, message: "watching").serialized, to: client)
            await session.addWatcher(airOnly: request == .watchAir, openCards: request == .watchOpen) { server.send($0, to: client) }
        } else {
            server.send(await session.handle(request, received: received).serialized, to: client)
        }
    }

    private func fail(_ error: UserError, _ ready: (ControlReply) -> Void) -> Int32 {
        ready(ControlReply(error))
        return error.code.rawValue
    }
}

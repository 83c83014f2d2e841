import Clocks
import EstimatorKit
import Radio
import RadioScheduling
import SessionCore
import Threads

/// The session's executor: feeds its core (`SessionCore`, which decides
/// everything) what happens — control requests, the radio's receptions and
/// state, ticks, the timer, the relay — and does what the core answers:
/// puts the local name on the air, streams lines to watchers, reports
/// reveals to the history, arms the timer. Radio and clock are injected,
/// so the session runs without Bluetooth and without waiting in tests.
/// The radio's restarts after a loss and the leave's broadcast are its own:
/// they are when to do I/O, not what the session is.
///
/// It runs on the session's loop, and so does every task it starts.
package actor Session {
    /// The thread that runs the session's jobs and timers.
    package nonisolated let loop: SessionLoop
    package nonisolated let adapter: String
    private let radio: any SessionRadio
    package nonisolated let clock: any SessionClock
    /// The leave broadcast, the stale ticks and the restart retries.
    let schedule: RadioSchedule
    /// The core, where the radio reads each reception.
    let board: SessionBoard
    /// The leaving's hooks and who awaits its end.
    private var ending = SessionEnding()
    /// The watch clients and the observers of lines, changes, reveals and timing.
    var outlets = SessionOutlets()
    /// The advertisement updates asked for (`SessionAction.advertise`).
    package private(set) var updates = AdvertisementUpdates()
    /// The radio's restarts after a loss.
    private var restarts = RadioRestarts()
    /// Who awaits the choice of my room (`chosenRoom`).
    private var roomWaiters: [CheckedContinuation<RoomChoice?, Never>] = []
    /// The requests whose answer the core gives later (`SessionAction.answerLater`), by id.
    private var waitingAnswers: [Int: CheckedContinuation<ControlReply, Never>] = [:]
    /// Writes one record to the history (`HistoryFile.save`); nil: the
    /// session keeps no history.
    let saveRecord: (@Sendable (HistoryRecord, Deck) throws(UserError) -> Void)?
    /// The history's records not saved yet, and when to save them.
    var history = HistoryKeeper()
    /// The wait for the history's next save (`HistoryKeeper.due`); the
    /// tests await its end.
    package internal(set) var historyWait: Task<Void, Never>?
    /// How many saves of the history were tried; the tests count them.
    package internal(set) var historySaves = 0
    /// The failures of saves made for the requests answered later, by the
    /// answer's id: the answer says it was not saved.
    private var unsavedAnswers: [Int: UserError] = [:]
    /// The wait for the reveal timer the core armed; the tests await its end.
    package private(set) var timerWait: Task<Void, Never>?
    /// The tick's long wait while the room needs no ticks; `changed` ends it.
    private var idleWait: Task<Void, any Error>?
    /// The backlog and which of its stories have an agreed estimate, read
    /// afresh for each round started here or begun elsewhere (`BacklogFile`);
    /// `nil` without a backlog.
    private let readBacklog: @Sendable () throws(UserError) -> BacklogProgress?

    /// `channel`: nil to find a room (`SessionCore`'s `RoomSearch`).
    /// `observing`: present without a vote (`join --observer`); `deck`: the
    /// cards I may pick (`join --deck`); `room.open`: my card goes on the
    /// air in clear, as the app sends it (`--open`); `backlog` reads the
    /// stories to estimate; `history` writes a revealed round's record.
    package init(adapter: String, channel: Channel?, name: PersonName, observing: Bool = false, deck: Deck = .app, room: Room = Room(),
                 radio: any SessionRadio, clock: any SessionClock, schedule: RadioSchedule = .standard, pid: Int32,
                 loop: SessionLoop, backlog: @escaping @Sendable () throws(UserError) -> BacklogProgress? = { nil },
                 history: (@Sendable (HistoryRecord, Deck) throws(UserError) -> Void)? = nil) {
        self.loop = loop
        saveRecord = history
        self.adapter = adapter
        self.radio = radio
        self.clock = clock
        self.schedule = schedule
        readBacklog = backlog
        let setup = SessionCore.Setup(adapter: adapter, radioless: adapter == AdapterName.none, pid: pid,
                                      lookAgainAfter: schedule.lookAgainAfter, roomListening: schedule.roomListening,
                                      roomConfirming: schedule.roomConfirming, clockTime: LocalTime.clock)
        let board = SessionBoard(SessionCore(setup, channel: channel, name: name, observing: observing, deck: deck, room: room,
                                             now: clock.now), clock: clock)
        self.board = board
        radio.onReception { reception in
            board.takeInOrder(.heard(Heard(reception)), received: reception.received)
        }
    }

    package nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    // MARK: What views read, from the core

    /// Set when leaving starts: requests are refused from then on.
    var hasEnded: Bool { board.read(\.hasEnded) }
    /// My channel.
    package var channel: Channel { board.read(\.channel) }
    /// Everyone heard so far.
    package var table: PeerTable { board.read(\.room.table) }
    /// My card.
    package var card: Card { board.read(\.card) }
    /// My channel's round and its votes.
    package var round: ChannelRound { board.read(\.round) }
    /// My channel as a table draws it now.
    package var view: Room.View { board.read { [clock] in $0.view(now: clock.now) } }
    /// Whether my round is revealed (or being revealed: `Room.advertised`).
    package var isRevealed: Bool { board.read(\.isRevealed) }
    /// The cards I may pick (`join --deck`).
    package var deck: Deck { board.read(\.deck) }
    /// Whether someone else in my channel has my name, and is still heard.
    package var isNameTaken: Bool { board.read(\.isNameTaken) }
    /// Since when the relay has been down; nil while it is connected, and
    /// without a relay.
    package var relayDownSince: Timestamp? { board.read(\.relayDownSince) }
    /// Since when the history is not saved; nil while it is.
    package var historyUnsavedSince: Timestamp? { board.read(\.historyUnsavedSince) }
    /// What `status` answers.
    package var status: ControlStatus { board.read { [clock] in $0.status(now: clock.now) } }
    /// My round's meeting as the room shares it.
    package var meeting: RoundMeeting { board.read(\.meeting) }

    /// The room chosen, once the session given no channel has chosen; nil
    /// at once for a session given its channel, and when the choosing
    /// ended otherwise (a `join` with a channel, the leave).
    package func chosenRoom() async -> RoomChoice? {
        guard board.read(\.isFindingRoom), !hasEnded else { return board.read(\.roomChoice) }
        return await withCheckedContinuation { roomWaiters.append($0) }
    }

    /// Answers those who await the choice of my room.
    private func roomChosen() {
        let choice = board.read(\.roomChoice)
        for waiter in roomWaiters { waiter.resume(returning: choice) }
        roomWaiters = []
    }

    // MARK: The radio

    /// Advertises and scans; returns once BlueZ has accepted the advertisement.
    package func start() async throws(RadioError) {
        let (localName, parts) = goingOnAir()
        try await radio.start(localName: localName, parts: parts)
        execute(board.take(.radioWorks(seals: radio.changesWhileScanning)))
    }

    /// Reads the radio's events and the core's asks from receptions until
    /// the radio stops; run it as its own task.
    package func listen() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followReceptions() }
            await followRadio()
            board.finish()
        }
    }

    private func followReceptions() async {
        for await batch in board.batches { execute(batch.actions, received: batch.received) }
    }

    private func followRadio() async {
        for await event in radio.events {
            switch event {
            case let .unavailable(problem):
                restarts.lost()
                execute(board.take(.radioFailed(problem: problem.description)))
                // No sign of recovery will follow (BlueZ released the
                // advertisement, or a call failed and ended the discovery):
                // try again now, then every `restartRetry`.
                if !problem.endIsAnnounced, !hasEnded { await restartRadio() }
            case .available:
                // Several signs of recovery may come for one loss: restart once.
                guard !hasEnded, board.read({ $0.radioProblem != nil }) else { continue }
                await restartRadio()
            }
        }
    }

    /// Registers and scans again after a loss. When BlueZ refuses, tries
    /// again every `restartRetry` until it works or a new loss is reported:
    /// after bluetoothd is killed the controller goes on with the dead
    /// daemon's scan for a few seconds and refuses a new advertisement
    /// meanwhile, and nothing else announces its end. A loss reported while
    /// a start runs (a retry runs beside the radio's events) makes it start
    /// once more, so the radio it reports working is the one there now.
    private func restartRadio() async {
        guard restarts.begin() else { return }
        defer { restarts.end() }
        do {
            repeat {
                let (localName, parts) = goingOnAir()
                try await radio.start(localName: localName, parts: parts)
            } while restarts.startsAgain()
            restarts.cancelRetry()  // a try still due would find nothing to mend
            execute(board.take(.radioWorks(seals: radio.changesWhileScanning)))
        } catch {
            restarts.retry(after: schedule.restartRetry, clock: clock) { await self.retryRestart() }
            execute(board.take(.radioFailed(problem: error.description)))
        }
    }

    private func retryRestart() async {
        guard !hasEnded, board.read({ $0.radioProblem != nil }) else { return }
        await restartRadio()
    }

    /// Feeds the core a tick every `schedule.tick` of the injected clock,
    /// until the session ends; every `schedule.idleTick` while time alone
    /// changes nothing in the room, until something changes (`changed`).
    package func tick() async {
        while !hasEnded {
            if board.read({ [clock] in $0.needsTicks(now: clock.now) }) {
                do { try await clock.sleep(for: schedule.tick) } catch { return }
            } else {
                let wait = Task(executorPreference: loop) { [clock, idleTick = schedule.idleTick] in try await clock.sleep(for: idleTick) }
                idleWait = wait
                await withTaskCancellationHandler { _ = await wait.result } onCancel: { wait.cancel() }
                idleWait = nil
                if Task.isCancelled { return }
            }
            execute(board.take(.tick))
        }
    }

    // MARK: Requests

    /// Answers one control request. `watch` is handled by `addWatcher`.
    /// `received` is when the request was read off the control socket.
    package func handle(_ request: ControlRequest, received: Duration? = nil) async -> ControlReply {
        let received = received ?? clock.elapsed
        switch request {
        case .leave:
            // A second leave, while the first is under way, waits for the same end.
            let channel = channel
            await leave()
            let left = ControlReply(exitCode: 0, message: "left channel \(channel)")
            return history.unsaved.map { left.notSaved($0.failure, lost: true) } ?? left
        case .relayed:
            return board.takeInOrder(.request(request), received: received)
                ?? ControlReply(UserError(.software, "The relayed packet was not answered."))
        case .round:
            return execute(board.take(.request(request, backlog: backlogRead())), received: received, asked: true)
                ?? ControlReply(UserError(.software, "The round was not answered."))
        default:
            let actions = board.take(.request(request))
            if let id = actions.lazy.compactMap({ if case let .answerLater(id) = $0 { id } else { nil } }).first {
                return await withCheckedContinuation { answer in
                    waitingAnswers[id] = answer
                    execute(actions, received: received, asked: true)
                }
            }
            return execute(actions, received: received, asked: true)
                ?? ControlReply(UserError(.software, "The request was not answered."))
        }
    }

    /// Does what the core asked, in order; returns its answer to a request.
    /// `received`: when what asked it was read, for the timing lines.
    /// `asked`: a request made the changes, so the history they change is
    /// saved at once, and the answer says if it could not be.
    @discardableResult
    func execute(_ actions: [SessionAction], received: Duration? = nil, asked: Bool = false) -> ControlReply? {
        let received = received ?? clock.elapsed
        var reply: ControlReply?
        var later: Int?
        var recorded = false
        for action in actions {
            switch action {
            case let .reply(answer): reply = answer
            case let .answerLater(id): later = id  // `handle` waits for its answer
            case let .answer(id, answer):
                let told = unsavedAnswers.removeValue(forKey: id).map { answer.notSaved($0) } ?? answer
                waitingAnswers.removeValue(forKey: id)?.resume(returning: told)
            case .advertise:
                if updates.request(received: received) { updates.running = Task(executorPreference: loop) { await self.runUpdates() } }
            case .rideAlong: radio.ride(parts: board.read(\.meetingParts))
            case .streamMe: broadcast(board.read(\.me))
            case .streamRadio: broadcast(.radio(board.read(\.radioState)))
            case let .stream(line): broadcast(line)
            case let .rowsChanged(events):
                for event in events {
                    trace("timing row \(event.kind) \(event.id.name): Device1 signal read -> row updated \((clock.elapsed - received).milliseconds)")
                }
            case let .record(round):
                outlets.revealed(round)
                if saveRecord != nil {
                    history.hold(HistoryRecord(round), deck: round.deck, now: clock.now)
                    recorded = true
                }
            case let .armTimer(id, after):
                timerWait?.cancel()
                timerWait = Task(executorPreference: loop) { [clock] in
                    do { try await clock.sleep(for: after) } catch { return }
                    await self.timerRanOut(id)
                }
            case .cancelTimer: timerWait?.cancel()
            case let .keepListening(until): radio.keepListening(for: until - clock.now)
            case .lookAgain: radio.lookAgain()
            case let .readBacklog(round): execute(board.take(.backlog(backlogRead(), for: round)))
            case .roomChosen: roomChosen()
            case .changed:
                broadcastWatchLines()
                changed()
            }
        }
        guard recorded else { return reply }
        guard asked, let failure = saveHistory() else {
            if !asked { saveHistoryWhenDue() }
            return reply
        }
        if let later { unsavedAnswers[later] = failure }
        return reply.map { $0.notSaved(failure) }
    }

    /// The backlog and its progress as the file says now.
    private func backlogRead() -> BacklogRead {
        do { return .read(try readBacklog()) } catch { return .failed(error) }
    }

    private func timerRanOut(_ id: Int) {
        execute(board.take(.timerRanOut(id: id)))
    }

    /// Updates the advertisement until it shows the latest local name: one
    /// update at a time, and picks made meanwhile collapse into the next one.
    /// Each update on the air answers the picks it carries (`wentOnAir`); a
    /// failure is radio trouble like any other (status and log), and the
    /// core answers the picks waiting with it.
    private func runUpdates() async {
        defer { updates.running = nil }
        while board.read({ $0.radioProblem == nil && !$0.hasEnded }), let received = updates.next() {
            do {
                let (localName, parts) = goingOnAir()
                let update = try await radio.update(localName: localName, parts: parts)
                execute(board.take(.wentOnAir))
                let sent = update.sent - received
                trace("timing update: request -> PropertiesChanged sent \(sent.milliseconds) = ours \((sent - update.scanStop).milliseconds)"
                      + " + scan stop \(update.scanStop.milliseconds); then settle and scan restart \((clock.elapsed - update.sent).milliseconds)")
            } catch {
                execute(board.take(.radioFailed(problem: error.description)))
            }
        }
    }

    /// What the core has me put on the air now: my local name, noted as
    /// mine, and my meeting's parts.
    private func goingOnAir() -> (localName: [UInt8], parts: [[UInt8]]) {
        board.update { core, now in (core.goingOnAir(now: now), core.meetingParts) }
    }

    // MARK: Leaving

    /// Broadcasts card none for `leaveBroadcast`, then stops the radio and
    /// ends the session. Safe to call twice (a signal during a leave).
    package func leave() async {
        guard !hasEnded else { return await ended() }
        execute(board.take(.leaving))
        historyWait?.cancel()  // saved once the radio is quiet, below
        restarts.cancelRetry()
        await updates.running?.value  // card none goes out last
        // Without Bluetooth there is no air to broadcast the leave on: the
        // relay clears my topic instead.
        if board.read({ $0.radioProblem == nil && !$0.setup.radioless }) {
            let (localName, parts) = board.read { [clock] in ($0.localName(now: clock.now), $0.meetingParts) }
            await radio.broadcastLeave(localName: localName, parts: parts, for: schedule.leaveBroadcast, clock: clock)
        }
        await radio.stop()
        if !history.held.isEmpty { saveHistory() }
        broadcast(.ended("left channel \(channel)"))
        roomChosen()
        for hook in ending.hooks { await hook() }
        outlets.dropWatchers()
        updateForwarding()
        changed()
        ending.finish()
    }

    /// Adds work to do when leaving, after the watchers heard the end.
    package func onLeave(_ hook: @escaping @Sendable () async -> Void) { ending.hook(hook) }

    /// Returns once the session has ended (the radio stopped).
    package func ended() async {
        guard !ending.isDone else { return }
        await withCheckedContinuation { ending.addWaiter($0) }
    }

    // MARK: Outlets

    /// Called when my channel's cards are revealed, after every re-vote of
    /// a revealed round and every settle: for the history.
    package func onReveal(_ observer: @escaping @Sendable (RevealedRound) -> Void) { outlets.onReveal(observer) }

    /// Tells the core which receptions the outlets want.
    func updateForwarding() { execute(board.take(.forward(outlets.forwarding))) }

    func changed() {
        idleWait?.cancel()
        outlets.changed()
    }
}

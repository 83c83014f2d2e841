import Clocks
import EstimatorKit
import Radio
import RadioScheduling

/// The session core: who I am (channel, name, card), the round my channel
/// is in, what the radio hears, and the answers to control requests
/// (`Session+Requests.swift`) and the round's result (`Session+Round.swift`:
/// reveal reports, settle, the timer). Radio and clock are injected, so
/// every rule here is tested without Bluetooth and without waiting. State
/// those files change is internal for them; nothing else sets it.
package actor Session {
    package nonisolated let adapter: String
    let pid: Int32
    private let radio: any SessionRadio
    package nonisolated let clock: any SessionClock
    /// The leave broadcast, the stale ticks and the restart retries.
    let schedule: RadioSchedule
    package var channel: Channel
    var name: PersonName
    /// My channel's revealed round, for the history.
    var ledger = RevealLedger()
    /// Whether someone else here has my name.
    var ownership = NameOwnership()
    /// The room (me, the peers, rounds and votes), updated as the radio
    /// reads each reception.
    let board: PeerBoard
    /// Why the radio is not working, or nil while it is.
    private(set) var radioProblem: RadioError?
    /// The leaving, its hooks and who awaits its end.
    private var ending = SessionEnding()
    /// The watch clients and the observers of lines, changes, reveals and timing.
    var outlets = SessionOutlets()
    /// The advertisement updates asked for (see `advertise`).
    package private(set) var updates = AdvertisementUpdates()
    /// The radio's restarts after a loss.
    private var restarts = RadioRestarts()
    /// The relay's state for `status`, when there is a relay.
    var relay = RelayStatus()
    /// The timer that reveals my round (`round --timer`, `reveal --in`).
    package var timer = RevealTimer()
    /// The agreed estimate in the last `me` line streamed.
    var streamedAgreed: Card?
    /// The wait for cards on their way the radio was last told of.
    private var cardsDue: Timestamp?
    /// The tick's long wait while the room needs no ticks; `changed` ends it.
    var idleWait: Task<Void, any Error>?
    /// The backlog and which of its stories have an agreed estimate, read
    /// afresh for each round I start (`BacklogFile`); `nil` without a backlog.
    let readBacklog: @Sendable () throws(UserError) -> BacklogProgress?

    /// `observing`: present without a vote (`join --observer`); `deck`: the
    /// cards I may pick (`join --deck`); `room.open`: my card goes on the
    /// air in clear, as the app sends it (`--open`); `backlog` reads the
    /// stories to estimate.
    package init(adapter: String, channel: Channel, name: PersonName, observing: Bool = false, deck: Deck = .app, room: Room = Room(),
         radio: any SessionRadio, clock: any SessionClock, schedule: RadioSchedule = .standard, pid: Int32,
         backlog: @escaping @Sendable () throws(UserError) -> BacklogProgress? = { nil }) {
        self.adapter = adapter
        self.channel = channel
        self.name = name
        self.radio = radio
        self.clock = clock
        self.schedule = schedule
        self.pid = pid
        readBacklog = backlog
        var room = room
        room.enter(Room.Me(channel: channel, name: name.text, card: .waiting, observing: observing, deck: deck), now: clock.now)
        let board = PeerBoard(room: room, clock: clock)
        self.board = board
        radio.onReception { board.take($0) }
    }

    /// Set when leaving starts: requests are refused from then on.
    var hasEnded: Bool { ending.hasStarted }

    /// Everyone heard so far.
    package var table: PeerTable { board.read(\.table) }

    /// My card.
    package var card: Card { board.read { $0.me?.card } ?? .waiting }

    /// My channel's round and its votes.
    package var round: ChannelRound { board.read { [channel] in $0.round(of: channel)! } }  // `Room.enter` made it

    /// My channel as a table draws it now.
    package var view: Room.View { board.read { [channel, clock] in $0.view(of: channel, now: clock.now) } }


    /// The local name to advertise now: my round and what the room lets me
    /// say of my card (`Room.advertised`).
    var localName: [UInt8] {
        let (version, shown) = board.read { [clock] in $0.advertised(now: clock.now) } ?? (.v01, card)
        return Array(Packet(version: version, channel: channel, card: shown, name: name.text).localName.utf8)
    }

    /// Whether my round is revealed (or being revealed: `Room.advertised`).
    package var isRevealed: Bool { let round = round; return round.current != nil && round.ballot.isRevealed }

    /// Whether I observe (`join --observer`).
    var isObserving: Bool { board.read { $0.me?.observing } ?? false }

    /// The cards I may pick (`join --deck`).
    package var deck: Deck { board.read { $0.me?.deck } ?? .app }

    /// The estimate my revealed round agreed on (`Agreement`).
    package var agreed: Card? { ledger.agreed }

    /// The peers of my channel, my own echo left out.
    private var channelPeers: [Peer] { board.read { [channel] in $0.peers(in: channel) } }

    /// Advertises and scans; returns once BlueZ has accepted the advertisement.
    package func start() async throws(RadioError) {
        updates.asked = localName
        try await radio.start(localName: ownership.advertising(updates.asked))
        fitBallotToRadio()
    }

    /// Seals my vote on the air where the radio changes without going deaf
    /// (`SessionRadio.changesWhileScanning`), as fitted at its last start,
    /// and puts the result on the air when it changes what I say.
    private func fitBallotToRadio() {
        let seals = radio.changesWhileScanning
        guard board.change({ room, _ in defer { room.seals = seals }; return room.seals != seals }) else { return }
        followRoom()
    }

    /// Whether someone else in my channel has my name, and is still heard:
    /// both are one row (a peer is a channel and a name), so theirs is
    /// hidden as if it were my echo.
    package var isNameTaken: Bool {
        ownership.heardSomeoneElse && table[PeerID(channel: channel, name: name.text)]?.isStale == false
    }

    /// Reads the radio's events and the table's changes until the radio
    /// stops; run it as its own task.
    package func listen() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followChanges() }
            await followRadio()
            board.finish()
        }
    }

    private func followRadio() async {
        for await event in radio.events {
            switch event {
            case let .unavailable(problem):
                restarts.lost()
                radioProblem = problem
                broadcast(.radio(radioState))
                // No sign of recovery will follow (BlueZ released the
                // advertisement, or a call failed and ended the discovery):
                // try again now, then every `restartRetry`.
                if !problem.endIsAnnounced, !hasEnded { await restartRadio() }
            case .available:
                // Several signs of recovery may come for one loss: restart once.
                guard !hasEnded, radioProblem != nil else { continue }
                await restartRadio()
            }
            changed()
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
                try await radio.start(localName: ownership.advertising(localName))
            } while restarts.startsAgain()
            restarts.cancelRetry()  // a try still due would find nothing to mend
            radioProblem = nil
            fitBallotToRadio()
        } catch {
            radioProblem = error
            restarts.retry(after: schedule.restartRetry, clock: clock) { await self.retryRestart() }
        }
        broadcast(.radio(radioState))
    }

    private func retryRestart() async {
        guard !hasEnded, radioProblem != nil else { return }
        await restartRadio()
        changed()
    }

    /// Turns stale peers stale and drops the long gone, every `schedule.tick`
    /// of the injected clock, until the session ends; every
    /// `schedule.idleTick` while time alone changes nothing in the room,
    /// until something changes (`changed`).
    package func tick() async {
        while !hasEnded {
            if board.needsTicks() {
                do { try await clock.sleep(for: schedule.tick) } catch { return }
            } else {
                let wait = Task { [clock, idleTick = schedule.idleTick] in try await clock.sleep(for: idleTick) }
                idleWait = wait
                await withTaskCancellationHandler { _ = await wait.result } onCancel: { wait.cancel() }
                idleWait = nil
                if Task.isCancelled { return }
            }
            let update = board.tick()
            let moved = follow(update)
            if board.hasQuietPeer(after: schedule.lookAgainAfter) { radio.lookAgain() }
            let revealed = recount()
            followRoom()
            if revealed || moved || !update.events.isEmpty { changed() }
        }
    }

    /// Acts on my channel's changes of round in `update`: a new round took
    /// my card back (`Room`) and starts a new record; joining one, a jump of
    /// the clock and its end change what I advertise. Returns whether
    /// anything changed.
    private func follow(_ update: Room.Update) -> Bool {
        let mine = update.rounds.filter { $0.channel == channel }
        guard !mine.isEmpty else { return false }
        if mine.contains(where: { if case .began = $0.change { true } else { false } }) { newRound() }
        _ = advertise(done: "", received: clock.elapsed)
        return true
    }

    /// Puts on the air what the room now has me say, when it changed:
    /// holding the reveal, the reveal (docs/PROTOCOL.md, Ballot); else
    /// tells the watchers of a new agreed estimate (a re-vote made or broke
    /// a consensus).
    private func followRoom() {
        keepListeningForCards()
        if !hasEnded, localName != updates.asked {
            _ = advertise(done: "", received: clock.elapsed)
        } else if ledger.agreed != streamedAgreed {
            broadcastMe()
        }
    }

    /// While my table waits for cards on their way (of votes heard sealed,
    /// or a laptop's last vote of a reveal heard from another one), the radio's
    /// scan runs without a restart (`SessionRadio.keepListening`): asked
    /// once for each reveal's wait.
    private func keepListeningForCards() {
        guard let due = board.cardsDue(), due != cardsDue else { return }
        cardsDue = due
        radio.keepListening(for: due - clock.now)
    }

    /// Called when my channel's cards are revealed, after every re-vote of
    /// a revealed round and every settle: for the history.
    package func onReveal(_ observer: @escaping @Sendable (RevealedRound) -> Void) { outlets.onReveal(observer) }

    /// Acts on the receptions the board passes on: a changed row, or every
    /// one while someone wants them all (see `updateForwarding`).
    private func followChanges() async {
        for await change in board.changes {
            broadcast(.heard(localName: change.localName, rssi: change.rssi, relayed: change.relayed, from: change.advertiser))
            for event in change.events {
                trace("timing row \(event.kind) \(event.id.name): Device1 signal read -> row updated \((clock.elapsed - change.received).milliseconds)")
            }
            if change.events.contains(where: { !$0.id.isApp && $0.channel == channel && $0.name == name.text }),
               ownership.heard(change.localName) {
                broadcastMe()
            }
            _ = follow(change.update)
            if change.events.contains(where: { $0.channel == channel && ($0.id.isApp || $0.name != name.text) }) {
                _ = recount()
                followRoom()
            }
            changed()
        }
    }

    /// Wakes the session for the receptions its outlets want.
    func updateForwarding() { board.forward(outlets.forwarding) }

    /// Answers at once and puts the new local name on the air in the
    /// background: the update pauses scanning and waits for bluetoothd to
    /// apply it (BlueZRadio), which a person typing `pick` need not wait for.
    /// A failure afterwards is radio trouble like any other: status and log.
    /// `received` is when the request was read, for the timing line.
    func advertise(done: String, received: Duration) -> ControlReply {
        updates.asked = localName
        defer {
            broadcastMe()
            changed()
        }
        guard radioProblem == nil else {
            return ControlReply(exitCode: 0, message: "\(done); on the air once the radio is back (\(radioState))")
        }
        if updates.request(received: received) { updates.running = Task { await runUpdates() } }
        return ControlReply(exitCode: 0, message: done)
    }

    /// Updates the advertisement until it shows the latest local name: one
    /// update at a time, and picks made meanwhile collapse into the next one.
    private func runUpdates() async {
        defer { updates.running = nil }
        while radioProblem == nil, !hasEnded, let received = updates.next() {
            do {
                let update = try await radio.update(localName: ownership.advertising(localName))
                let sent = update.sent - received
                trace("timing update: request -> PropertiesChanged sent \(sent.milliseconds) = ours \((sent - update.scanStop).milliseconds)"
                      + " + scan stop \(update.scanStop.milliseconds); then settle and scan restart \((clock.elapsed - update.sent).milliseconds)")
            } catch {
                radioProblem = error
                broadcast(.radio(radioState))
                changed()
            }
        }
    }

    /// Broadcasts card none for `leaveBroadcast`, then stops the radio and
    /// ends the session. Safe to call twice (a signal during a leave).
    package func leave() async {
        guard !hasEnded else { return await ended() }
        ending.start()
        restarts.cancelRetry()
        _ = board.change { room, now in room.pick(.none, now: now) }
        await updates.running?.value  // card none goes out last
        // Without Bluetooth there is no air to broadcast the leave on: the
        // relay clears my topic instead.
        if radioProblem == nil, adapter != AdapterName.none {
            await radio.broadcastLeave(localName: localName, for: schedule.leaveBroadcast, clock: clock)
        }
        await radio.stop()
        broadcast(.ended("left channel \(channel)"))
        for hook in ending.hooks { await hook() }
        outlets.dropWatchers()
        updateForwarding()
        changed()
        ending.finish()
    }

    /// Adds work to do when leaving, after the watchers heard the end.
    func onLeave(_ hook: @escaping @Sendable () async -> Void) { ending.hook(hook) }

    /// Returns once the session has ended (the radio stopped).
    package func ended() async {
        guard !ending.isDone else { return }
        await withCheckedContinuation { ending.addWaiter($0) }
    }

    package var status: ControlStatus {
        ControlStatus(pid: pid, adapter: adapter, channel: channel.rawValue, name: name.text, card: card,
                      peers: channelPeers.count, radio: radioState, round: round.current, title: round.state.title,
                      nameTaken: isNameTaken, relay: relay.summary, observing: isObserving, revealed: isRevealed, deck: deck)
    }

    /// The radio's state in words, for `status` and `watch`.
    var radioState: String {
        if let radioProblem { return radioProblem.description }
        if adapter == AdapterName.none { return hasEnded ? "stopped" : "no Bluetooth (relay only)" }
        return hasEnded ? "stopped" : "advertising and scanning"
    }

    /// Who I am now, as the watchers' `me` line says it.
    var me: ControlWatchLine {
        .me(channel: channel.rawValue, name: name.text, card: card, adapter: adapter,
            round: round.current, title: round.state.title, nameTaken: isNameTaken, revealed: isRevealed,
            observing: isObserving, onAir: updates.asked, deck: deck, revealsAt: revealsAt, story: ledger.story,
            agreed: ledger.agreed)
    }
}

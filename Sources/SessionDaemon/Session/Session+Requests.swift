import EstimatorKit
import Radio
import Rendering

/// The answers to control requests: each changes the room through the
/// board and puts what changed on the air (`advertise`).
extension Session {
    /// Answers one control request. `watch` is handled by `addWatcher`.
    /// `received` is when the request was read off the control socket.
    package func handle(_ request: ControlRequest, received: Duration? = nil) async -> ControlReply {
        let received = received ?? clock.elapsed
        guard !hasEnded else { return ControlReply(UserError(.unavailable, "The session is ending; run `estimator join` again.")) }
        switch request {
        case .pick where isObserving:
            return ControlReply(UserError(.usage, "You are observing, so you have no card; `estimator join --voter` to vote."))
        case let .pick(newCard):
            do throws(DeckCardError) { try deck.check(newCard) } catch {
                return ControlReply(UserError(.usage, error.description))
            }
            _ = board.change { room, now in room.pick(newCard, now: now) }
            _ = recount()
            return advertise(done: newCard == .waiting ? "card taken back" : "picked \(newCard)", received: received)
        case let .round(title, countdown):
            return nextRound(titled: title, timer: countdown, received: received)
        case let .settle(card):
            return settle(card)
        case let .reveal(after):
            if let after {
                guard let current = round.current, !isRevealed else { return nothingToReveal }
                startTimer(after, for: current)
                announce()
                return ControlReply(exitCode: 0, message: "the timer reveals round \(current) in channel \(channel) in \(after), unless everyone votes first")
            }
            timer.stop()
            guard board.change({ room, now in room.revealNow(now: now) }), let current = round.current else { return nothingToReveal }
            let tally = board.read { [channel, clock] in $0.tally(of: channel, now: clock.now) }
            _ = recount()
            let without = tally.waitingFor.isEmpty ? "" : " without " + tally.waitingFor.map(ShownName.text).joined(separator: ", ")
            return advertise(done: "round \(current) revealed in channel \(channel)\(without)", received: received)
        case let .join(newChannel, newName, observing, newDeck):
            let parsed: PersonName?
            do { parsed = try newName.map { text throws(PersonNameError) in try PersonName.parse(text).name } } catch {
                return ControlReply(UserError(.data, error.description))
            }
            if parsed != nil || newChannel != nil { ownership.forget() }
            if let newChannel, newChannel != channel.rawValue {
                // Another room: its round is learnt from the air (`Room.enter`).
                channel = Channel(rawValue: newChannel)
                newRound()
            }
            if let parsed { name = parsed }
            let newDeck = newDeck ?? deck
            // A card the new deck lacks is taken back rather than kept on the air.
            let me = Room.Me(channel: channel, name: name.text, card: newDeck.allows(card) ? card : .waiting,
                             observing: observing ?? isObserving, deck: newDeck)
            board.change { room, now in room.enter(me, now: now) }
            var done = Self.joined(channel: channel, name: name, observing: me.observing, deck: me.deck, adapter: adapter, pid: pid)
            // Not advertised yet, so whoever is heard with it is someone else.
            if table[PeerID(channel: channel, name: name.text)]?.isStale == false {
                ownership.taken()
                done += "; someone here is already called \(name), so one of you is hidden: give yourself another name with --name"
            }
            return advertise(done: done, received: received)
        case .leave:
            await leave()
            return ControlReply(exitCode: 0, message: "left channel \(channel)")
        case .status:
            return ControlReply(exitCode: 0, message: radioState, status: status)
        case .watch, .watchAir:
            return ControlReply(UserError(.usage, "watch is a stream; the control server starts it."))
        case let .relayed(localName):
            // Through the same board as the air: decoder, peer cap, events.
            board.take(Reception(localName: localName, rssi: nil, received: received, relayed: true))
            return ControlReply(exitCode: 0, message: "relayed")
        case let .relay(state):
            relay.state = state
            changed()
            return ControlReply(exitCode: 0, message: "relay state noted")
        }
    }

    /// Starts the next round: titled `typed` (a backlog story's key is that
    /// story), else the backlog's next story, else untitled; `timer`
    /// reveals it when it runs out.
    private func nextRound(titled typed: String?, timer: Countdown?, received: Duration) -> ControlReply {
        let progress: BacklogProgress?
        do { progress = try readBacklog() } catch {
            // A title needs no backlog; the next story does.
            guard let typed else { return ControlReply(error) }
            return startRound(title: typed, story: Story(line: typed), timer: timer, received: received)
        }
        guard let progress, typed == nil else {
            guard let typed else { return startRound(title: nil, story: nil, timer: timer, received: received) }
            // A title that is a story's key is that story; any other is a story of its own, as typed.
            if let story = progress?.story(keyed: typed) {
                return startRound(title: story.title, story: story, timer: timer, received: received)
            }
            return startRound(title: typed, story: Story(line: typed), timer: timer, received: received)
        }
        guard let next = progress.next else {
            return startRound(title: nil, story: nil, timer: timer, received: received,
                              note: "; every story of the backlog has an agreed estimate (`estimator backlog` lists them)")
        }
        return startRound(title: next.story.title, story: next.story, timer: timer, received: received,
                          note: "; story \(next.index + 1) of \(progress.entries.count)")
    }

    /// Starts the next round with `title`, `story` and `timer`; `note`
    /// follows the answer's first part.
    private func startRound(title: String?, story: Story?, timer countdown: Countdown?, received: Duration,
                            note: String = "") -> ControlReply {
        guard case let .began(number) = board.change({ room, now in room.startNext(title: title, now: now) }) else {
            return ControlReply(UserError(.software, "The round did not move on."))
        }
        newRound()
        ledger.story = story
        let named = title.map { " (\($0))" } ?? ""
        var done = "round \(number)\(named) began in channel \(channel); cards cleared\(note)"
        if let countdown {
            startTimer(countdown, for: number)
            done += "; the timer reveals it in \(countdown)"
        }
        return advertise(done: done, received: received)
    }

    /// Records the agreed estimate of my revealed round: `card`, checked
    /// against my deck as a pick is, or the consensus without one.
    private func settle(_ card: Card?) -> ControlReply {
        guard let current = round.current, ledger.hasRevealed else {
            let why = round.current.map { "round \($0) is not revealed yet; `estimator reveal` shows its cards" }
                ?? "there is no round yet; `estimator round` starts one"
            return ControlReply(UserError(.usage, "Nothing to settle in channel \(channel): \(why)."))
        }
        let named = round.state.title.map { " (\($0))" } ?? ""
        let agreed: Card
        if let card {
            do throws(DeckCardError) { try deck.check(card) } catch { return ControlReply(UserError(.usage, error.description)) }
            do throws(AgreementError) { try Agreement.check(card) } catch { return ControlReply(UserError(.usage, error.description)) }
            agreed = card
        } else {
            guard let consensus = Agreement.consensus(ledger.votes.values) else {
                // Numbers, then sizes, then the rest, as a deck lists them.
                let order = { (card: Card) in card.numericValue ?? card.sizeRank.map { 1000 + Double($0) } ?? 2000 + Double(card.rawValue) }
                let cards = Set(ledger.votes.values).sorted { order($0) < order($1) }.map(\.description)
                let votes = cards.count < 2 ? "nobody voted a number or a size" : "the votes are "
                    + cards.dropLast().joined(separator: ", ") + " and " + cards.last!
                return ControlReply(UserError(.usage, "Round \(current)\(named) has no consensus (\(votes)); "
                    + "give the card the team agreed on, as `estimator settle 5`."))
            }
            agreed = consensus
        }
        _ = settle(on: agreed)
        return ControlReply(exitCode: 0, message: "round \(current)\(named) settled at \(agreed)")
    }

    /// Why a reveal, now or on a timer, is refused.
    private var nothingToReveal: ControlReply {
        let why = round.current.map { "round \($0) is revealed already" } ?? "there is no round yet; `estimator round` starts one"
        return ControlReply(UserError(.usage, "Nothing to reveal in channel \(channel): \(why)."))
    }

    /// What `join` answers: where I am, and as whom (`, observing,` and my
    /// deck unless it is the app's: ` with the fibonacci deck`).
    static func joined(channel: Channel, name: PersonName, observing: Bool, deck: Deck, adapter: String, pid: Int32) -> String {
        let role = (observing ? ", observing," : "") + (deck == .app ? "" : " with \(deck.phrase)")
        return "joined channel \(channel) as \(name)\(role) on \(adapter) (session pid \(pid))"
    }
}

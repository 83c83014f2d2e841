import EstimatorKit
import Rendering

/// The answers to control requests: each changes the room and puts what
/// changed on the air; the answer comes last, after what it tells the
/// watchers.
extension SessionCore {
    mutating func answer(_ request: ControlRequest, backlog: BacklogRead, now: Timestamp) -> [SessionAction] {
        if hasEnded { return answerLeaving(request, now: now) }
        switch request {
        case .pick where isObserving:
            return [.reply(ControlReply(UserError(.usage, "You are observing, so you have no card; `estimator join --voter` to vote.")))]
        case let .pick(newCard):
            do throws(DeckCardError) { try deck.check(newCard) } catch {
                return [.reply(ControlReply(UserError(.usage, error.description)))]
            }
            let pickedIn = round.current
            _ = room.pick(newCard, now: now)
            let actions = recount(now: now).actions
            guard radioProblem == nil else {
                return actions + advertise(done: picked(newCard, in: pickedIn), now: now, sayingOutage: true)
            }
            return actions + advertising(now: now) + [.answerLater(id: picks.add(newCard, in: pickedIn))]
        case let .round(title, countdown):
            return nextRound(titled: title, timer: countdown, backlog: backlog, now: now)
        case let .settle(card):
            return settle(card, now: now)
        case let .reveal(after):
            return reveal(after: after, now: now)
        case let .join(newChannel, newName, observing, newDeck, range):
            if let range { room.range = range }
            return join(channel: newChannel, name: newName, observing: observing, deck: newDeck, now: now)
        case .status:
            return [.reply(ControlReply(exitCode: 0, message: radioState, status: status(now: now)))]
        case .watch, .watchAir, .watchOpen:
            return [.reply(ControlReply(UserError(.usage, "watch is a stream; the control server starts it.")))]
        case .leave:
            // The executor answers once the leave's broadcast is over.
            return take(.leaving, at: now)
        case let .relayed(payload):
            // Through the same path as the air: decoder, peer cap, events.
            let split = RelayPayload(splitting: payload)
            return hear(Heard(localName: split.localName, rssi: nil, relayed: true, meeting: split.meeting), now: now)
                + [.reply(Self.done("relayed"))]
        case let .relay(state, connected):
            return relayReported(state, connected: connected, now: now) + [.reply(Self.done("relay state noted"))]
        }
    }

    /// The answers while leaving: `status` as ever (it says so), a refusal
    /// of everything else; a `join`'s carries the status, which tells it to
    /// wait for the end.
    private func answerLeaving(_ request: ControlRequest, now: Timestamp) -> [SessionAction] {
        switch request {
        case .status:
            return [.reply(ControlReply(exitCode: 0, message: "leaving channel \(channel)", status: status(now: now)))]
        case .join:
            let refusal = UserError(.temporary, "The session on \(setup.adapter) is leaving channel \(channel); run `estimator join` again once `estimator leave` has returned.")
            return [.reply(ControlReply(exitCode: refusal.code.rawValue, message: refusal.sentence, status: status(now: now)))]
        default:
            return [.reply(ControlReply(UserError(.unavailable, "The session is ending; run `estimator join` again.")))]
        }
    }

    /// The relay reported its state at `now`; the `me` line, which says
    /// since when the relay has been down, is streamed again when that
    /// changes.
    mutating func relayReported(_ state: String, connected: Bool, now: Timestamp) -> [SessionAction] {
        relay.report(state, connected: connected, now: now) ? [.streamMe, .changed] : [.changed]
    }

    /// What `pick` and `round` add to their answer while the relay is down:
    /// since when, what it means, and where to look; empty while it is
    /// connected and without a relay.
    var relayOutage: String {
        guard let since = relay.downSince else { return "" }
        return "; the relay has been down since \(setup.clockTime(since)), so teammates reached through it "
            + "hear nothing until it is back (`estimator status` says why)"
    }

    /// Reveals my round now, or starts the timer that reveals it `after`.
    mutating func reveal(after: Countdown?, now: Timestamp) -> [SessionAction] {
        if let after {
            guard let current = round.current, !isRevealed else { return [nothingToReveal] }
            return takeMeeting(meeting.timing(now + after.duration), now: now)
                + advertise(done: "the timer reveals round \(current) in channel \(channel) in \(after), unless everyone votes first",
                            now: now)
        }
        timer.stop()
        guard room.revealNow(now: now), let current = round.current else { return [.cancelTimer, nothingToReveal] }
        let tally = room.tally(of: channel, now: now)
        // Said to me, so I am "you" in it.
        let without = tally.waitingFor.isEmpty ? ""
            : " without " + tally.waitingFor.map { $0.isMe ? "you" : ShownName.text($0) }.joined(separator: ", ")
        return [.cancelTimer] + recount(now: now).actions
            + advertise(done: "round \(current) revealed in channel \(channel)\(without)", now: now)
    }

    /// Joins `newChannel` as `newName` (each nil: unchanged), observing or
    /// voting, with `newDeck`.
    private mutating func join(channel newChannel: UInt8?, name newName: String?, observing: Bool?, deck newDeck: Deck?,
                               now: Timestamp) -> [SessionAction] {
        let parsed: PersonName?
        do { parsed = try newName.map { text throws(PersonNameError) in try PersonName.parse(text).name } } catch {
            return [.reply(ControlReply(UserError(.data, error.description)))]
        }
        if parsed != nil || newChannel != nil { ownership.took(at: now) }
        var actions: [SessionAction] = []
        if isFindingRoom {
            search.choosingSince = nil
            search.confirmingUntil = nil
            actions.append(.roomChosen)
        }
        if let newChannel, newChannel != channel.rawValue {
            // Another room: its round is learnt from the air (`Room.enter`).
            channel = Channel(rawValue: newChannel)
            actions += newRound()
        }
        if let parsed { name = parsed }
        let newDeck = newDeck ?? deck
        // A card the new deck lacks is taken back rather than kept on the air.
        let me = Room.Me(channel: channel, name: name.text, card: newDeck.allows(card) ? card : .waiting,
                         observing: observing ?? isObserving, deck: newDeck)
        room.enter(me, now: now)
        var done = Self.joined(channel: channel, name: name, observing: me.observing, deck: me.deck,
                               adapter: setup.adapter, pid: setup.pid)
        // Not advertised yet, so whoever is heard with it is someone else.
        if let namesake {
            ownership.taken()
            done += namesake.name == name.text
                ? "; someone here is already called \(name), so one of you is hidden: give yourself another name with --name"
                : "; someone here has a name that looks the same as \(name): give yourself another name with --name"
        }
        // With my status, so that `join` remembers the channel I am in.
        return (actions + advertise(done: done, now: now)).map { action in
            guard case let .reply(reply) = action else { return action }
            return .reply(ControlReply(exitCode: reply.exitCode, message: reply.message, status: status(now: now)))
        }
    }

    /// Starts the next round: titled `typed` (a backlog story's key is that
    /// story), else the backlog's next story, else untitled; `timer`
    /// reveals it when it runs out.
    private mutating func nextRound(titled typed: String?, timer: Countdown?, backlog: BacklogRead,
                                    now: Timestamp) -> [SessionAction] {
        let progress: BacklogProgress?
        switch backlog {
        case .none: progress = nil
        case let .read(read): progress = read
        case let .failed(error):
            // A title needs no backlog; the next story does.
            guard let typed else { return [.reply(ControlReply(error))] }
            return startRound(title: typed, story: Story(line: typed), from: .typed, timer: timer, now: now)
        }
        guard let progress, typed == nil else {
            guard let typed else { return startRound(title: nil, story: nil, timer: timer, now: now) }
            // A title that is a story's key is that story; any other is a story of its own, as typed.
            if let story = progress?.story(keyed: typed) {
                return startRound(title: story.title, story: story, from: .typed, timer: timer, now: now)
            }
            return startRound(title: typed, story: Story(line: typed), from: .typed, timer: timer, now: now)
        }
        guard let next = progress.next else {
            return startRound(title: nil, story: nil, timer: timer, now: now,
                              note: "; every story of the backlog has an agreed estimate (`estimator backlog` lists them)")
        }
        return startRound(title: next.story.title, story: next.story, from: .backlog, timer: timer, now: now,
                          note: "; story \(next.index + 1) of \(progress.entries.count)")
    }

    /// Starts the next round with `title`, `story` (which came `from` a
    /// backlog or was typed) and `timer`; `note` follows the answer's first
    /// part.
    private mutating func startRound(title: String?, story: Story?, from source: RoundMeeting.Source = .none,
                                     timer countdown: Countdown?, now: Timestamp, note: String = "") -> [SessionAction] {
        guard case let .began(number) = room.startNext(title: title, now: now) else {
            return [.reply(ControlReply(UserError(.software, "The round did not move on.")))]
        }
        var actions = newRound()
        var started = meeting
        if let story { started = started.choosing(story, from: source) }
        let named = title.map { " (\($0))" } ?? ""
        var done = "round \(number)\(named) began in channel \(channel); cards cleared\(note)"
        if let countdown {
            started = started.timing(now + countdown.duration)
            done += "; the timer reveals it in \(countdown)"
        }
        actions += takeMeeting(started, now: now)
        return actions + advertise(done: done, now: now, sayingOutage: true)
    }

    /// Records the agreed estimate of my revealed round: `card`, checked
    /// against my deck as a pick is, or the consensus without one.
    private mutating func settle(_ card: Card?, now: Timestamp) -> [SessionAction] {
        guard let current = round.current, ledger.hasRevealed else {
            let why = round.current.map { "round \($0) is not revealed yet; `estimator reveal` shows its cards" }
                ?? "there is no round yet; `estimator round` starts one"
            return [.reply(ControlReply(UserError(.usage, "Nothing to settle in channel \(channel): \(why).")))]
        }
        let named = title.map { " (\($0))" } ?? ""
        let agreed: Card
        if let card {
            do throws(DeckCardError) { try deck.check(card) } catch { return [.reply(ControlReply(UserError(.usage, error.description)))] }
            do throws(AgreementError) { try Agreement.check(card) } catch { return [.reply(ControlReply(UserError(.usage, error.description)))] }
            agreed = card
        } else {
            guard let consensus = Agreement.consensus(ledger.votes.values) else {
                // Numbers, then sizes, then the rest, as a deck lists them.
                let order = { (card: Card) in card.numericValue ?? card.sizeRank.map { 1000 + Double($0) } ?? 2000 + Double(card.rawValue) }
                let voted = Set(ledger.votes.values).sorted { order($0) < order($1) }
                let cards = voted.map(\.description)
                let alone = ledger.votes.count == 1 && (try? Agreement.check(voted[0])) != nil
                let votes = alone ? "one vote, \(cards[0]), agrees with nobody" : cards.count < 2 ? "nobody voted a number or a size" : "the votes are "
                    + cards.dropLast().joined(separator: ", ") + " and " + cards.last!
                // The example is a card the settle would take: the middle one
                // voted, else the middle of my deck (a size on the tshirt deck).
                let agreeable = voted.filter { deck.allows($0) && (try? Agreement.check($0)) != nil }
                let example = agreeable.isEmpty ? deck.cards[deck.cards.count / 2] : agreeable[(agreeable.count - 1) / 2]
                return [.reply(ControlReply(UserError(.usage, "Round \(current)\(named) has no consensus (\(votes)); "
                    + "give the card the team agreed on, as `estimator settle \(example.name ?? example.description)`.")))]
            }
            agreed = consensus
        }
        return takeMeeting(meeting.settling(agreed), now: now)
            + advertise(done: "round \(current)\(named) settled at \(agreed)", now: now)
    }

    /// Answers the picks on the air now, or (`all`) every one waiting: the
    /// radio failed or the session is leaving, and the answer says so.
    mutating func answerPicks(all: Bool) -> [SessionAction] {
        picks.take(all: all).map { pick in
            let answer = picked(pick.card, in: pick.round)
            let message = hasEnded ? "\(answer); the session left before it was on the air"
                : (radioProblem == nil ? answer : "\(answer); on the air once the radio is back (\(radioState))") + relayOutage
            return .answer(id: pick.id, Self.done(message))
        }
    }

    /// What `pick` answers about `card`, picked in `pickedIn`: the round
    /// (or its story) the vote went to, or the round that began since and
    /// cleared it.
    func picked(_ card: Card, in pickedIn: RoundNumber?) -> String {
        if card == .waiting { return "card taken back" }
        // The first round heard, joined as it runs, keeps the card: the vote went to it.
        guard pickedIn == round.current || pickedIn == nil && self.card == card else {
            let began = round.current.map { "round \($0)" + (title.map { " (\($0))" } ?? "") } ?? "a new round"
            return "picked \(card)" + (pickedIn.map { " for round \($0)" } ?? "")
                + ", but \(began) began before it was on the air and cleared it: "
                + "`estimator pick \(card == .question ? "unsure" : card.name ?? card.description)` votes in it"
        }
        guard let current = round.current else { return "picked \(card)" }
        return "picked \(card) for " + (meeting.story.map { $0.key ?? $0.summary } ?? "round \(current)")
    }

    /// Why a reveal, now or on a timer, is refused.
    private var nothingToReveal: SessionAction {
        let why = round.current.map { "round \($0) is revealed already" } ?? "there is no round yet; `estimator round` starts one"
        return .reply(ControlReply(UserError(.usage, "Nothing to reveal in channel \(channel): \(why).")))
    }

    /// Puts what the room has me say on the air, tells the watchers, and
    /// answers `done` (saying when the radio is down that it goes on the
    /// air once the radio is back, and with `sayingOutage` when the relay
    /// is down, `relayOutage`).
    mutating func advertise(done: String, now: Timestamp, sayingOutage: Bool = false) -> [SessionAction] {
        let message = (radioProblem == nil ? done : "\(done); on the air once the radio is back (\(radioState))")
            + (sayingOutage ? relayOutage : "")
        return advertising(now: now) + [.reply(Self.done(message))]
    }

    /// Puts what the room has me say on the air (unless the radio is down
    /// or I am leaving) and tells the watchers.
    mutating func advertising(now: Timestamp) -> [SessionAction] {
        onAir = localName(now: now)
        meetingOnAir = meeting
        let onTheAir: [SessionAction] = radioProblem == nil && !hasEnded ? [.advertise] : []
        return onTheAir + [.streamMe, .changed]
    }

    static func done(_ message: String) -> ControlReply { ControlReply(exitCode: 0, message: message) }
}

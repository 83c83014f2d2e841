import EstimatorKit
import Glibc
import Rendering
import SessionDaemon
import Threads

/// `join --foreground`: the live table of my own session in this terminal,
/// redrawn on change (at most 20 times a second) and every half second for
/// the ages, with a card picked by a key and `r` for the next round; the
/// bell rings when the cards are revealed, unless `quiet`. Returns when `q`
/// is pressed, input ends, or the session ends, leaving the last table on
/// the normal screen.
package enum ForegroundTable {
    private enum Input: Sendable { case key(UInt8), changed, tick, ended }

    /// Draws `session`'s table until `q`, the end of input or of the session.
    package static func run(_ session: Session, quiet: Bool) async {
        let clock = session.clock
        let keyboard = Keyboard()
        defer { keyboard.restore() }
        let (inputs, sink) = AsyncStream.makeStream(of: Input.self)
        await session.onChange { sink.yield(.changed) }
        let keys = Task(executorPreference: session.loop) {
            for await key in keyboard.keys() { sink.yield(.key(key)) }
            sink.yield(.ended)
        }
        let ticker = Task(executorPreference: session.loop) {
            while !Task.isCancelled {
                try? await clock.sleep(for: .milliseconds(100))
                sink.yield(.tick)
            }
        }
        let end = Task(executorPreference: session.loop) {
            await session.ended()
            sink.yield(.ended)
        }
        defer {
            keys.cancel()
            ticker.cancel()
            end.cancel()
        }

        var screen = TerminalScreen()
        screen.enter()
        await loop(inputs, session: session, quiet: quiet, screen: &screen)
        screen.leave()
        screen.print(await frame(session, now: clock.now))
    }

    private static func loop(_ inputs: AsyncStream<Input>, session: Session, quiet: Bool, screen: inout TerminalScreen) async {
        let clock = session.clock
        var bell = RevealBell()
        var dirty = true
        var lastDraw = Timestamp(nanosecondsSince1970: 0)
        for await input in inputs {
            switch input {
            case .ended: return
            case let .key(key):
                if key == Keyboard.quit { return }
                if key == Keyboard.nextRound { _ = await session.handle(.round(title: nil)) }
                if key == Keyboard.reveal { _ = await session.handle(.reveal()) }
                if let card = CardKeys(deck: await session.deck).card(for: key) {
                    _ = await session.handle(.pick(card))
                }
            case .changed: dirty = true
            case .tick: break
            }
            if !quiet, await rings(&bell, session) { TerminalScreen.ringBell() }
            let now = clock.now
            let age = now - lastDraw
            if (dirty && age >= .milliseconds(50)) || age >= .milliseconds(500) {
                screen.draw(await frame(session, now: now), footer: [CardKeys(deck: await session.deck).legend])
                dirty = false
                lastDraw = now
            }
        }
    }

    /// Whether the bell rings now for my channel's round (`RevealBell`).
    private static func rings(_ bell: inout RevealBell, _ session: Session) async -> Bool {
        let round = await session.round
        let view = await session.view
        return bell.rings(channel: view.channel, round: round.current, decided: round.ballot.isRevealed,
                          shown: view.tally.isRevealed)
    }

    /// One snapshot of the session's room per frame, and the relay's
    /// outage and the history's as `watch` says them.
    private static func frame(_ session: Session, now: Timestamp) async -> LiveTable {
        let notices = [await session.relayDownSince.map(WatchViewer.relayDownNotice),
                       await session.historyUnsavedSince.map(WatchViewer.unsavedNotice)].compactMap { $0 }
        return LiveTable(sections: [TableSection(await session.view, now: now)], adapter: session.adapter,
                         notice: notices.isEmpty ? nil : notices.joined(separator: "; "))
    }
}

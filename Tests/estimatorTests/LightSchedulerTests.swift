import RadioScheduling
import Testing

/// The light scheduler on its own, without I/O: events in, actions out,
/// on the test clock (`ScheduleDriver`).
@Suite struct LightSchedulerTests: SchedulerSuite {
    /// A light restart: forget the app's devices, stop and start, no
    /// settle, no hold; a change goes
    /// out while scanning, and once more 0.5 s later.
    @Test func theLightScheduleRestartsTheScanAloneAndChangesWhileScanning() {
        var radio = Self.light()
        radio.advance(to: .milliseconds(1400))
        radio.feed(.heard)
        radio.advance(to: .milliseconds(1500))
        radio.doneLightRestart()
        #expect(radio.deadlines == [.milliseconds(3000)])
        radio.feed(.changeAsked)
        radio.done(.change)
        #expect(radio.changes == [false])
        #expect(radio.deadlines == [.milliseconds(1750), .milliseconds(3000)], "announced again 0.25 s on")
        radio.advance(to: .milliseconds(1749))
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(1750))
        radio.done(.announceAgain)
        #expect(radio.deadlines == [.milliseconds(3000)])
        #expect(radio.steps.isEmpty)
    }

    /// A light change asked while a restart forgets the app's devices goes
    /// out before the scan stops; one asked while the scan stops waits for
    /// it to start again, and so does an announcement falling due then: in
    /// the gap they would keep the scan off.
    @Test func aLightChangeIsNeverMadeInTheRestartsGap() {
        var radio = Self.light()
        radio.advance(to: .milliseconds(1500))
        #expect(radio.steps == [.forgetApps], "the scan is not stopped yet")
        radio.feed(.changeAsked)
        #expect(radio.steps == [.forgetApps, .change])
        radio.done(.forgetApps)
        radio.done(.change)
        #expect(radio.steps == [.stopScan])
        #expect(radio.deadlines == [.milliseconds(1750)], "announced again 0.25 s on")
        radio.advance(to: .milliseconds(1750))
        #expect(radio.steps == [.stopScan], "the announcement waits for the scan")
        radio.feed(.changeAsked)
        #expect(radio.steps == [.stopScan], "and so does a change")
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .change], "the change supersedes the announcement")
        radio.done(.startScan)
        radio.done(.change)
        #expect(radio.changes == [false, false])
        #expect(radio.deadlines == [.milliseconds(2000), .milliseconds(3250)], "the next restart counts from the start")
        radio.advance(to: .milliseconds(2000))
        radio.done(.announceAgain)
        #expect(radio.steps.isEmpty)
    }

    /// Asked to keep listening (a reveal's sealed cards on their way), the
    /// light mode's restart that falls due waits until then; the next one
    /// counts from it. The strict mode, whose cards are in clear, goes on.
    @Test func keepingListeningPutsTheLightRestartOff() {
        var radio = Self.light()
        radio.advance(to: .milliseconds(1000))
        radio.feed(.keepListening(until: .milliseconds(2500)))
        radio.feed(.keepListening(until: .milliseconds(2000)))  // a shorter wait shortens nothing
        radio.advance(to: .milliseconds(1500))
        #expect(radio.steps.isEmpty, "no restart while the cards come")
        #expect(radio.deadlines == [.milliseconds(2500)])
        radio.advance(to: .milliseconds(2499))
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(2500))
        radio.doneLightRestart()
        #expect(radio.deadlines == [.milliseconds(4000)])

        // Asked while the restart forgets the app's devices: the scan is not stopped.
        radio.advance(to: .milliseconds(4000))
        radio.feed(.keepListening(until: .milliseconds(5000)))
        radio.done(.forgetApps)
        #expect(radio.steps.isEmpty)
        #expect(radio.deadlines == [.milliseconds(5000)])

        var strict = Self.strict()
        strict.feed(.keepListening(until: .milliseconds(2500)))
        strict.advance(to: .milliseconds(1500))
        #expect(strict.steps == [.forgetApps, .stopScan], "the strict restart goes on")
    }

    /// A light change made while keeping listening (the reveal's, which
    /// puts the card on the air) is announced again 0.25 s on, with the scan
    /// left running: a peer whose restart's gap covered the first
    /// announcement hears the second.
    @Test func aLightChangeWhileKeepingListeningIsAnnouncedAgain() {
        var radio = Self.light()
        radio.advance(to: .milliseconds(1000))
        radio.feed(.changeAsked)
        radio.done(.change)
        #expect(radio.deadlines == [.milliseconds(1250), .milliseconds(1500)])
        radio.feed(.keepListening(until: .milliseconds(2500)))
        radio.feed(.changeAsked)
        #expect(radio.deadlines == [.milliseconds(1500)], "the change supersedes the announcement due")
        radio.done(.change)
        #expect(radio.changes == [false, false])
        #expect(radio.deadlines == [.milliseconds(1250), .milliseconds(1500)])
        radio.advance(to: .milliseconds(1250))
        #expect(radio.steps == [.announceAgain], "the second announcement, the scan on")
        radio.done(.announceAgain)
        radio.advance(to: .milliseconds(1500))
        #expect(radio.steps.isEmpty, "no restart while the cards come")
        #expect(radio.deadlines == [.milliseconds(2500)])
    }

    /// Asked to look again, the light mode does nothing: its own restarts
    /// bring a quiet peer, and a restart at each tick would deafen it.
    @Test func lookingAgainLeavesTheLightScanAlone() {
        var radio = Self.light()
        radio.advance(to: .milliseconds(300))
        radio.feed(.lookAgain)
        #expect(radio.steps.isEmpty)
        #expect(radio.deadlines == [.milliseconds(1500)])
        radio.advance(to: .milliseconds(1499))
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(1500))
        radio.doneLightRestart()
        #expect(radio.deadlines == [.milliseconds(3000)])
    }

    /// While the advertisement's parts take turns, each light restart ends
    /// with an announcement, made once the scan is on again, which puts the
    /// next part on the air; a change due then is that announcement (its
    /// new parts start from the first), and so is a second announcement
    /// due. With one part, a restart leaves the advertisement alone.
    @Test func aLightRestartMovesThePartsOnWhileTheyTakeTurns() {
        var radio = Self.light()
        radio.feed(.rotates(true))
        #expect(radio.steps.isEmpty && radio.deadlines == [.milliseconds(1500)], "told, nothing to do yet")
        radio.advance(to: .milliseconds(1500))
        radio.done(.forgetApps)
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .announceNextPart], "the scan first, then the next part")
        radio.done(.startScan)
        radio.done(.announceNextPart)
        #expect(radio.deadlines == [.milliseconds(3000)])
        #expect(radio.steps.isEmpty)

        // A change (new parts) asked while the restart stops the scan.
        radio.advance(to: .milliseconds(3000))
        radio.done(.forgetApps)
        radio.feed(.rotates(true))
        radio.feed(.changeAsked)
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .change], "the change is the restart's announcement")
        radio.done(.startScan)
        radio.done(.change)
        #expect(radio.changes == [false])
        #expect(radio.deadlines == [.milliseconds(3250), .milliseconds(4500)])

        // Its second announcement repeats its first part, for peers that
        // missed it; the next restart moves the parts on.
        radio.advance(to: .milliseconds(3249))
        #expect(radio.steps.isEmpty)
        radio.advance(to: .milliseconds(3250))
        radio.done(.announceAgain)
        radio.advance(to: .milliseconds(4500))
        radio.done(.forgetApps)
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .announceNextPart])
        radio.done(.startScan)
        radio.done(.announceNextPart)

        // One part: the restart is the scan's alone again.
        radio.feed(.rotates(false))
        radio.advance(to: .milliseconds(6000))
        radio.doneLightRestart()
        #expect(radio.steps.isEmpty)
        #expect(radio.deadlines == [.milliseconds(7500)])

        // The strict mode announces at every restart anyway.
        var strict = Self.strict()
        strict.feed(.rotates(true))
        #expect(strict.steps.isEmpty && strict.deadlines == [.milliseconds(1500)])
    }

    /// A second announcement due while a light restart stops the scan, with
    /// parts that take turns, is made once: it repeats the change's part,
    /// which peers that missed it need first.
    @Test func aLightRestartAnnouncesOnceWhenAnAnnouncementIsDue() {
        var radio = Self.light()
        radio.feed(.rotates(true))
        radio.advance(to: .milliseconds(1400))
        radio.feed(.changeAsked)
        radio.done(.change)
        #expect(radio.deadlines == [.milliseconds(1500), .milliseconds(1650)])
        radio.advance(to: .milliseconds(1500))
        radio.done(.forgetApps)
        radio.advance(to: .milliseconds(1650))
        #expect(radio.steps == [.stopScan], "the announcement waits for the scan")
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .announceAgain])
    }

    /// The part a change of the parts put on the air stays through a
    /// restart sooner than `partHold` after it, so that every peer's next
    /// scan start reads it (the first is the story's key); the restart after
    /// moves the parts on. A change of the local name alone holds nothing.
    @Test func aChangesPartStaysThroughARestartSoonAfterIt() {
        var radio = Self.light()
        radio.feed(.rotates(true))
        radio.advance(to: .milliseconds(1000))
        radio.feed(.newParts)
        radio.feed(.changeAsked)
        radio.done(.change)
        radio.advance(to: .milliseconds(1250))
        radio.done(.announceAgain)
        radio.advance(to: .milliseconds(1500))
        radio.done(.forgetApps)
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan], "500 ms after the change: its part stays")
        radio.done(.startScan)
        #expect(radio.deadlines == [.milliseconds(3000)])
        radio.advance(to: .milliseconds(3000))
        radio.done(.forgetApps)
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .announceNextPart], "2 s after it: the next part")
        radio.done(.startScan)
        radio.done(.announceNextPart)

        radio.advance(to: .milliseconds(4000))
        radio.feed(.changeAsked)
        radio.done(.change)
        radio.advance(to: .milliseconds(4250))
        radio.done(.announceAgain)
        radio.advance(to: .milliseconds(4500))
        radio.done(.forgetApps)
        radio.done(.stopScan)
        #expect(radio.steps == [.startScan, .announceNextPart], "a pick: the turn goes on")
    }
}

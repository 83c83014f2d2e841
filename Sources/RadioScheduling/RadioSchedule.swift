import EstimatorKit

/// Every timing of the session's radio, with why it is what it is, and the
/// mode its controller allows (`RadioMode`).
///
/// The emulated controllers of the rig, and strict real ones, report an
/// advertiser only when their scan starts or when its advertising starts,
/// and Linux drops about half of the reports a scan start brings (they beat
/// its "Discovering" event). Real controllers with duplicate filtering on
/// (the kernel turns it on for discovery) report a steady advertiser about
/// once per scan. So discovery restarts at a cadence in every mode. In the
/// strict mode each restart stops scanning, announces the advertisement
/// again (which needs scanning off: a legacy controller refuses the new
/// random address while it scans), and scans again; a peer's announcement
/// is lost when it falls in the listener's own gap. The light mode
/// restarts the scan alone.
///
/// Overridable without rebuilding: `ESTIMATOR_SCHEDULE` holds `name=ms`
/// pairs separated by commas, milliseconds each, for instance
/// `ESTIMATOR_SCHEDULE=restart=2000,jitter=600`. Names: `restart`, `jitter`,
/// `settle`, `hold`, `backoff`, `hold-limit`, `listen`, `reannounce`, `light-reannounce`, `leave`, `retry`,
/// `tick`, `idle-tick`, `drop`, `look-again`, `read` (0 reads every signal at once); and `mode=strict` or `mode=light` instead of the mode the
/// controller allows. The stale time is `--stale`.
package struct RadioSchedule: Equatable, Sendable {
    /// How the advertisement and the scan share the controller: nil until
    /// the radio has read its controller (`fitted(to:)`), unless
    /// `ESTIMATOR_SCHEDULE` names one.
    package var mode: RadioMode?
    /// Discovery restarts this long after the last restart ended, on
    /// average: each restart announces the advertisement again, and a peer
    /// that misses three in a row (6 s, the stale time) turns stale. More
    /// often makes the gaps grow: one bluetoothd serves every session's
    /// restarts (docs/ARCHITECTURE.md, Why the strict mode is as it is).
    package var restartEvery: Duration = .milliseconds(1500)
    /// Each interval moves by up to this much either way, so that two
    /// sessions whose gaps met (by chance: nothing pulls them together)
    /// part at the next restart instead of staying in step.
    package var jitter: Duration = .milliseconds(500)
    /// A change's part stays on the air at least this long before a restart
    /// moves the parts on: the longest interval between a peer's restarts
    /// (`restartEvery` + `jitter`). A controller that filters duplicates
    /// reports an advertiser about once a scan, so a peer reads a part at
    /// its scan's start; a part moved on sooner may be missed by a peer
    /// until the parts come round again, and the first after a change is
    /// the story's key (docs/PROTOCOL.md, Meeting).
    package var partHold: Duration { restartEvery + jitter }
    /// A session given no channel listens this long before it chooses its
    /// room (docs/PROTOCOL.md, Finding a room): four of `restartEvery`, so
    /// that every peer near announces about four times meanwhile (each
    /// restart announces again). A strict controller hears each
    /// announcement at least half the time, so a peer goes unheard in all
    /// four about one time in sixteen at worst; a light one hears them all.
    /// Longer makes every `join` without a channel wait longer. (A
    /// chooser first heard late extends it, up to twice: `RoomSearch`.)
    package var roomListening: Duration { restartEvery * 4 }
    /// It then confirms its choice this long before `join` answers: two of
    /// `restartEvery`, in which the signal floor finds the teammates who
    /// chose at the same moment in their new room (three readings over a
    /// second at least), so that one who chose apart hears them and joins
    /// them (`RoomChoice.larger(than:peers:)`).
    package var roomConfirming: Duration { restartEvery * 2 }
    /// The whole of finding a room, as `join` tells a person who waits.
    package var roomFinding: Duration { roomListening + roomConfirming }
    /// Scanning stays off this long after bluetoothd has read an
    /// announcement or a change (`AdvertisementHandle.synchronize`): it
    /// passes one to the kernel in two steps, the second 3-8 ms after the
    /// first, and the controller refuses the new random address if the
    /// scan starts before then. Shorter is better: peers' announcements
    /// in this gap go unheard.
    package var settle: Duration = .milliseconds(50)
    /// A due restart waits until this long after the last sighting: a
    /// sighting is a peer announcing from inside its own gap, which most
    /// often ends within this time (docs/MEASUREMENTS.md, The air).
    /// Restarting in that moment would put this session's announcement in
    /// the peer's gap, unheard.
    var hold: Duration = .milliseconds(250)
    /// ...and then up to this much more, at random: every session that heard
    /// one announcement would otherwise restart at the same instant, and
    /// miss the others' announcements while they miss its own
    /// (docs/MEASUREMENTS.md, The air).
    var backoff: Duration = .milliseconds(250)
    /// The longest a due restart waits for a moment without sightings, so
    /// a room that announces all the time still restarts.
    package var holdLimit: Duration = .seconds(1)
    /// In the strict mode, a restart that falls due while a peer heard over
    /// the air has been quiet for `lookAgainAfter` first listens, until the
    /// peer is heard, for at most a random part of this. Such a peer's last
    /// announcement fell in this session's gap, and two radios whose gaps
    /// met once meet again more often than by chance: each counts its next
    /// interval from its own last restart. Missing one announcement costs a
    /// peer about 3 s; two in a row bring it near the stale time. Listening
    /// through the peer's next announcement hears it, and the hold after it
    /// moves this session's gap away. The limit is random so that two radios
    /// that missed each other, and both listen, do not stop together. It
    /// lengthens this session's own interval by as much: with the longest
    /// interval and `holdLimit`, this session announces at most 4 s after its
    /// last announcement, within the stale time (6 s).
    package var listenLimit: Duration = .seconds(1)
    /// A changed advertisement (a pick) is announced again this long after
    /// the change: a peer in its own gap missed the first, and no gap lasts
    /// this long.
    var reannounceAfter: Duration = .milliseconds(500)
    /// The light mode's second announcement comes sooner: a light peer's
    /// only gaps are its restarts (30–120 ms), and at a sealed reveal every
    /// card moves at once, each one missed costing this long
    /// (docs/MEASUREMENTS.md, The ballot).
    var lightReannounceAfter: Duration = .milliseconds(250)
    /// Card none is on the air this long before the session leaves: half
    /// with scanning paused around the change, half with scanning stopped,
    /// which puts it on the air a second time (see `Session.leave`).
    package var leaveBroadcast: Duration = .seconds(1)
    /// After a refused restart of the radio the session tries again this
    /// often: after bluetoothd is killed the controller goes on scanning
    /// for a few seconds and refuses a new advertisement meanwhile.
    package var restartRetry: Duration = .seconds(1)
    /// A peer heard over the air but not for this long is looked for
    /// again, in the strict mode only: peers announce at each of their
    /// restarts, so the next restart listens first (`listenLimit`). The
    /// light mode's own restarts, at most 2 s apart, bring a quiet peer
    /// (`LightScheduler`).
    package var lookAgainAfter: Duration = .seconds(2)
    /// Stale peers are looked for this often: a tenth of the stale time.
    package var tick: Duration = .milliseconds(500)
    /// The tick while time alone changes nothing (`Room.needsTicks`: nobody
    /// heard, nothing held, no round waiting), cut short by any change: a
    /// session alone wakes for nothing else. Well under the gap that means
    /// a jump of the clock (`RoundState.wakeGap`).
    package var idleTick: Duration = .seconds(5)
    /// A peer not heard for this long is dropped from the table.
    package var drop: Duration = .seconds(30)
    /// While BlueZ's signals come less than this apart, the bus is read once
    /// per this long, for everything that came meanwhile
    /// (`Connection.paceReading`), not once per signal: in a room of many
    /// peers (BlueZ signals each advertising report) waking the reading
    /// thread for each was most of the session's CPU time. A reception then
    /// shows up to this much later, small beside the 0.25–0.5 s a missed
    /// announcement costs; half of it leaves a busy room's session costing
    /// more than libdbus alone does (docs/MEASUREMENTS.md, session). A
    /// quiet room, and BlueZ's replies, are read at once.
    package var readEvery: Duration = .milliseconds(100)

    /// The values above.
    package static let standard = RadioSchedule()

    /// Whether scanning stops around every advertisement change and each
    /// announcement (the strict mode, and any schedule not yet fitted).
    package var pausesScan: Bool { mode != .light }

    /// The scheduler of this schedule's mode, chosen once per start of the
    /// radio: strict unless the mode is light. `random` draws the jitter,
    /// backoff and listening span from a range.
    package func scheduler(random: @escaping Draw = Self.draw) -> any RadioScheduler {
        pausesScan ? StrictScheduler(schedule: self, random: random) : LightScheduler(schedule: self, random: random)
    }

    /// The environment variable that overrides the schedule.
    package static let variable = "ESTIMATOR_SCHEDULE"

    /// `standard` with the overrides in `text` (see the type's comment).
    package static func parse(_ text: String) throws(UserError) -> RadioSchedule {
        var schedule = RadioSchedule.standard
        let fields: [String: WritableKeyPath<RadioSchedule, Duration>] = [
            "restart": \.restartEvery, "jitter": \.jitter, "settle": \.settle, "hold": \.hold, "backoff": \.backoff,
            "hold-limit": \.holdLimit, "listen": \.listenLimit, "reannounce": \.reannounceAfter,
            "light-reannounce": \.lightReannounceAfter, "leave": \.leaveBroadcast,
            "retry": \.restartRetry, "tick": \.tick, "idle-tick": \.idleTick, "drop": \.drop, "look-again": \.lookAgainAfter,
            "read": \.readEvery,
        ]
        for pair in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0.filter { $0 != " " }) }
            if parts.count == 2, parts[0] == "mode", let mode = RadioMode(rawValue: parts[1]) {
                schedule.mode = mode
                continue
            }
            guard parts.count == 2, let field = fields[parts[0]], let ms = Int(parts[1]), ms >= 0, ms <= 600_000
            else {
                throw UserError(.usage, "\(variable) takes name=milliseconds pairs separated by commas (names: "
                                + fields.keys.sorted().joined(separator: ", ") + ", at most 600000 ms each), "
                                + "and mode=strict or mode=light.")
            }
            schedule[keyPath: field] = .milliseconds(ms)
        }
        guard schedule.jitter < schedule.restartEvery, schedule.tick > Duration.zero, schedule.idleTick >= schedule.tick else {
            throw UserError(.usage, "\(variable): jitter must be shorter than restart, tick above 0, and idle-tick no shorter than tick.")
        }
        return schedule
    }
}

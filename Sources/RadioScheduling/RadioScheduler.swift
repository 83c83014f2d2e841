/// When the radio does what: the schedule of one discovery (and of the
/// advertisement beside it) as a state machine without I/O. Its executor
/// (`RadioExecutor`) feeds it what happened, at the time it happened on
/// the radio's clock, and does what it answers, in order. So every timer
/// and every step is tested by feeding events, and the executor owns no
/// timing decision.
///
/// Two implementations, chosen once when the radio starts, after the
/// controller's mode (`RadioMode`): `StrictScheduler` stops scanning around
/// every change and announcement; `LightScheduler` changes while scanning
/// and restarts the scan alone (and serves `watch` on its own, which
/// advertises nothing). docs/ARCHITECTURE.md, Radio schedule.
package protocol RadioScheduler: Sendable {
    /// Takes `event`, which happened at `now` (the radio clock's `elapsed`);
    /// returns what to do about it, in order.
    mutating func take(_ event: ScheduleEvent, at now: Duration) -> [ScheduleAction]
}

/// What happens to a scheduled radio.
package enum ScheduleEvent: Equatable, Sendable {
    /// The discovery started scanning (the radio's start).
    case scanStarted
    /// An advertiser was heard.
    case heard
    /// A timer armed earlier ran out.
    case fired(RadioTimer)
    /// The session asked to change the advertisement (`RadioExecutor.update`).
    case changeAsked
    /// The change asked puts new parts on the air: the part it starts from
    /// stays through the restarts within `RadioSchedule.partHold` of it.
    /// Told before `changeAsked`; a change of the local name alone leaves
    /// the turn as it is.
    case newParts
    /// Whether the advertisement carries parts that take turns, one at
    /// each announcement (more than one: docs/PROTOCOL.md, Meeting); told
    /// at the start and with each change asked.
    case rotates(Bool)
    /// The session asked to look for a peer gone quiet (`SessionRadio.lookAgain`).
    case lookAgain
    /// The session asked for no restart until `until` (`SessionRadio.keepListening`).
    case keepListening(until: Duration)
    /// A step asked for returned.
    case done(RadioStep)
    /// A step asked for failed.
    case failed(RadioStep)
    /// Scanning ends for good, the advertisement stays (the leave's second half).
    case stopScanning
}

/// The radio's I/O, each one call to BlueZ; run one at a time, in order.
package enum RadioStep: Equatable, Sendable {
    /// Forget the app's devices BlueZ holds, so their next shortened names
    /// are read (`Discovery.forgetDiscoverable`): a restart's first step,
    /// taken while still scanning. Never fails.
    case forgetApps
    /// Stop scanning for a moment (`Discovery.pause`).
    case stopScan
    /// Scan again (`Discovery.resume`).
    case startScan
    /// Announce the advertisement again as it is, and wait until
    /// bluetoothd has read it (`AdvertisementHandle.announceAgain`): a
    /// change's second announcement repeats its part, for peers that
    /// missed the first.
    case announceAgain
    /// Announce the advertisement again with its next part when its parts
    /// take turns (`AdvertisementHandle.announceNextPart`): a restart's.
    case announceNextPart
    /// Make the change asked for, and wait until bluetoothd has read it.
    case change
    /// Stop discovering for good (`Discovery.stop`).
    case endScan
}

/// What a scheduler asks its executor to do.
package enum ScheduleAction: Equatable, Sendable {
    /// Run a step after the steps asked for before it.
    case perform(RadioStep)
    /// Feed `.fired(timer)` once the clock reaches the deadline; replaces
    /// the timer if it is armed.
    case arm(RadioTimer, at: Duration)
    /// Disarm the timer, if it is armed.
    case cancel(RadioTimer)
    /// The change asked for is done (on the air, scanning again), or
    /// failed: answer whoever asked.
    case changeDone(failed: Bool)
    /// A restart failed: the discovery is over, and the radio reports it
    /// as trouble (the session starts it again).
    case halt
}

/// The timers of a radio's schedule (`RadioSchedule` has their values).
package enum RadioTimer: Hashable, Sendable, CaseIterable {
    /// The next restart falls due (`restartEvery`, `jitter`).
    case restart
    /// A due restart listens for a quiet peer until then (`listenLimit`).
    case listen
    /// A due restart waits until then after a sighting (`hold`, `backoff`, `holdLimit`).
    case hold
    /// Scanning stays off until then after an announcement (`settle`).
    case settle
    /// A change is announced again then (`reannounceAfter`).
    case reannounce
}

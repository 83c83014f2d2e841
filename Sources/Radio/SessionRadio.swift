import Clocks
import EstimatorKit

/// The one seam between the session and Bluetooth: everything BlueZ-facing
/// the session needs, and nothing else. The session core is written against
/// this protocol, so it is tested with an in-memory radio and an injected clock;
/// the BlueZ-backed radio implements it over the `BlueZ` module.
///
/// A radio serves one adapter. It advertises the estimator service UUID
/// (`FB3367FD-09F8-4E08-9F6B-07E309FD2576`) with the given local name and
/// the meeting's parts, one at a time (docs/PROTOCOL.md, Meeting), and
/// scans for the same UUID, restarting discovery periodically so that
/// advertisers still on the air are heard again.
package protocol SessionRadio: Sendable {
    /// Registers the advertisement with `localName` and the first of
    /// `parts` and starts scanning; returns once BlueZ has accepted the
    /// advertisement.
    func start(localName: [UInt8], parts: [[UInt8]]) async throws(RadioError)

    /// Changes the advertised local name and parts in place (a
    /// `PropertiesChanged` on the advertisement), not by re-registering:
    /// new parts go on the air from the first, a new local name alone
    /// leaves the part on the air. Returns when the change is done, with
    /// how its time was spent (for the session log).
    @discardableResult
    func update(localName: [UInt8], parts: [[UInt8]]) async throws(RadioError) -> RadioUpdate

    /// Puts `parts` on the air with the advertisement's next announcement,
    /// with no change of their own: what the room told the session of its
    /// meeting, which the room already has (docs/PROTOCOL.md, Meeting).
    func ride(parts: [[UInt8]])

    /// Stops scanning and keeps advertising, for the second half of the leave
    /// broadcast: the advertising starts afresh, which peers hear. A legacy
    /// controller's does as the scan ends, sooner than after a second
    /// announcement of card none (docs/ARCHITECTURE.md, Why the strict mode is as it is);
    /// an extended set is announced again.
    /// A second announcement of an update still pending is dropped.
    func stopScanning() async

    /// Looks for a peer heard over the air that has gone quiet (see
    /// `RadioSchedule.lookAgainAfter`): the strict mode's next restart
    /// listens first, for the peer's next announcement; the light mode's
    /// own restarts bring it. The session asks at each tick while the peer
    /// stays quiet.
    func lookAgain()

    /// Keeps the scan running, with no restart, for `duration`: the cards
    /// of votes heard sealed are on their way, each sent once more a moment
    /// later, and a restart's gap (tens of milliseconds on a laptop, up to a
    /// second on a loaded one) can miss both (docs/MEASUREMENTS.md, The
    /// ballot). The light mode's restarts wait; the strict mode's cards are
    /// in clear, so it has nothing to wait for.
    func keepListening(for duration: Duration)

    /// Unregisters the advertisement and stops scanning. Idempotent.
    func stop() async

    /// Whether an advertisement change leaves the scan running, so that
    /// the radio hears the room while it changes (the light mode): known
    /// once `start` has returned. Where it does, the session's vote goes on
    /// the air sealed until the reveal (`Room.seals`), since then every
    /// laptop puts its card on the air at the reveal at once and hears the
    /// others'.
    var changesWhileScanning: Bool { get }

    /// Sets what takes every reception, as the radio reads it: for BlueZ on
    /// the bus connection's reading thread, before anything else wakes, so it
    /// must be quick. Set once, before `start`.
    func onReception(_ take: @escaping @Sendable (Reception) -> Void)

    /// What happens to the radio. Single consumer: the session reads it for
    /// its whole life; it finishes after `stop()`.
    var events: AsyncStream<RadioEvent> { get }
}

extension SessionRadio {
    /// Broadcasts `localName` (card none), beside `parts`, for `duration`
    /// as the session leaves. A peer hears an advertisement start only while it scans, and
    /// each peer stops scanning for a moment every few seconds: so card none
    /// starts twice, far enough apart that no peer's pause covers both. First
    /// as an update, then as the scan stops (see `stopScanning`), to stay on
    /// the air.
    package func broadcastLeave(localName: [UInt8], parts: [[UInt8]], for duration: Duration, clock: any SessionClock) async {
        _ = try? await update(localName: localName, parts: parts)
        try? await clock.sleep(for: duration / 2)
        await stopScanning()
        try? await clock.sleep(for: duration / 2)
    }
}

/// An advertisement carrying the estimator service UUID, heard.
package struct Reception: Equatable, Sendable {
    package var localName: [UInt8]
    package var rssi: Int?
    /// When the radio read BlueZ's signal saying so (the session clock's `elapsed`).
    package var received: Duration
    /// Whether the relay heard it from the broker rather than a radio.
    package var relayed = false
    /// The device it came from over the air, when the radio names it.
    package var advertiser: Advertiser?
    /// The part of its sender's meeting that came with the local name
    /// (docs/PROTOCOL.md, Meeting); empty when none did.
    package var part: [UInt8]

    /// A reception of `localName` (and `part`) at `received`, heard over the air unless `relayed`.
    package init(localName: [UInt8], rssi: Int? = nil, received: Duration, relayed: Bool = false, advertiser: Advertiser? = nil,
                 part: [UInt8] = []) {
        self.localName = localName
        self.rssi = rssi
        self.received = received
        self.relayed = relayed
        self.advertiser = advertiser
        self.part = part
    }
}

/// How an advertisement update spent its time, from the radio's side.
package struct RadioUpdate: Equatable, Sendable {
    /// Spent stopping the scan before the change could be made (waiting for a
    /// periodic scan restart in progress, then StopDiscovery): the deliberate
    /// pause that legacy advertising needs (see `Discovery.pause`, `StrictScheduler`).
    package var scanStop: Duration
    /// When the `PropertiesChanged` was handed to the bus connection (the
    /// session clock's `elapsed`).
    package var sent: Duration

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(scanStop: Duration, sent: Duration) {
        self.scanStop = scanStop
        self.sent = sent
    }
}

/// Something that happens to the radio.
package enum RadioEvent: Equatable, Sendable {
    /// The radio can no longer advertise or scan (bluetoothd gone, adapter
    /// removed or powered off, advertisement released by BlueZ). The
    /// session keeps its state and waits for `.available`.
    case unavailable(RadioError)
    /// The radio can work again; the session calls `start` to re-register.
    case available
}

/// Why the radio cannot do what the session asked, as the person who ran
/// `join` needs to hear it.
package enum RadioError: Error, Equatable, Sendable, CustomStringConvertible {
    case systemBusUnavailable
    case bluetoothdAbsent
    case adapterNotFound(String)
    case adapterPoweredOff(String)
    case noAdvertisingSlot(String)
    case accessDenied(String)
    case advertisementReleased
    /// Anything else BlueZ said, in its words.
    case failed(String)

    /// One sentence with the fix.
    package var description: String {
        switch self {
        case .systemBusUnavailable:
            "The D-Bus system bus is not reachable; start it with `sudo systemctl start dbus`, then run `estimator doctor`."
        case .bluetoothdAbsent:
            "bluetoothd is not running; start it with `sudo systemctl start bluetooth` (`estimator doctor` checks the rest)."
        case .adapterNotFound(let adapter):
            "There is no Bluetooth adapter \(adapter); plug one in or pick another with --adapter (see `estimator doctor`)."
        case .adapterPoweredOff(let adapter):
            "\(adapter) is powered off; turn it on with `bluetoothctl power on` (`estimator doctor` says what else blocks it)."
        case .noAdvertisingSlot(let adapter):
            "\(adapter) has no free advertising slot; stop other advertisers (`bluetoothctl advertise off`) and try again, or see `estimator doctor`."
        case .accessDenied(let detail):
            "BlueZ refused access (\(detail)); join the group the D-Bus policy allows (`sudo usermod -aG bluetooth $USER`, then log in again), or see `estimator doctor`."
        case .advertisementReleased:
            "BlueZ released the advertisement; the session registers it again."
        case .failed(let detail):
            "BlueZ failed (\(detail)); `estimator doctor` checks each link to the radio."
        }
    }

    /// Whether the radio reports `.available` when this is over: bluetoothd
    /// and adapters announce their return. For anything else the session
    /// tries again by itself.
    package var endIsAnnounced: Bool {
        switch self {
        case .bluetoothdAbsent, .adapterNotFound, .adapterPoweredOff: true
        default: false
        }
    }

    /// The sysexits code `join` exits with.
    package var code: UserError.Code {
        switch self {
        case .accessDenied: .permission
        case .failed: .software
        default: .unavailable
        }
    }
}

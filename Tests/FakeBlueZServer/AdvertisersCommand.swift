import BlueZTestSupport

/// `advertisers N MS K [CHANNEL [VERSION]]`: a room of N estimator peers
/// (Peer1…PeerN in CHANNEL, default 1, with the estimator service UUID) on
/// hci0, each heard every MS milliseconds with a new RSSI and showing a new
/// card every K receptions, in the packet version VERSION (two hex digits,
/// default `01`, the app's; `31` is round 1 revealed: docs/PROTOCOL.md,
/// Version); replaces the previous room. `advertisers 0` empties it.
struct AdvertisersCommand {
    let count: Int
    let interval: Duration
    let cardEvery: Int
    let channel: UInt8
    let version: String

    static let usage =
        "expected `advertisers N MS K [CHANNEL [VERSION]]`: N 0-4096, MS > 0, K > 0, CHANNEL 0-255, VERSION two hex digits"
    /// Lowercase, as BlueZ writes UUIDs in `Device1.UUIDs`.
    static let serviceUUID = "fb3367fd-09f8-4e08-9f6b-07e309fd2576"
    /// Every card a peer holds, in its hex form (docs/PROTOCOL.md, Cards).
    static let cards = ["00", "7F", "01", "02", "03", "05", "08", "0D", "14", "28", "64", "FD", "FE"]

    /// Parses a command line; nil if it is not an `advertisers` command.
    init?(_ line: String) throws(CommandError) {
        let words = line.split(separator: " ").map(String.init)
        guard words.first == "advertisers" else { return nil }
        guard words.count >= 2, let count = Int(words[1]), (0...4096).contains(count) else { throw CommandError(Self.usage) }
        self.count = count
        guard count > 0 else {
            (interval, cardEvery, channel, version) = (.zero, 1, 1, "01")
            return
        }
        let version = words.count == 6 ? words[5].uppercased() : "01"
        guard (4...6).contains(words.count), let milliseconds = Int(words[2]), milliseconds > 0,
            let cardEvery = Int(words[3]), cardEvery > 0,
            let channel = words.count >= 5 ? UInt8(words[4]) : 1,
            version.count == 2, version.allSatisfy(\.isHexDigit)
        else { throw CommandError(Self.usage) }
        (self.interval, self.cardEvery, self.channel, self.version) = (.milliseconds(milliseconds), cardEvery, channel, version)
    }

    /// Starts the room on `fake`; nil for an empty room.
    func start(on fake: FakeBlueZ) -> Task<Void, Never>? {
        guard count > 0 else { return nil }
        let digits = Array("0123456789ABCDEF")
        let prefix = version + String([digits[Int(channel >> 4)], digits[Int(channel & 0xF)]])
        let cardEvery = self.cardEvery
        return fake.emitAdvertisers(count: count, every: interval, uuids: [Self.serviceUUID]) { device, round in
            // RSSI moves by a few dB at each reception, as it does in a room.
            FakeBlueZ.Reception(
                name: prefix + Self.cards[(device + round / cardEvery) % Self.cards.count] + "Peer\(device + 1)",
                rssi: Int16(-50 - device % 20 - round % 5))
        }
    }

    var summary: String {
        count == 0
            ? "no advertisers"
            : "\(count) advertisers in channel \(channel), version \(version), each every \(interval), new card every \(cardEvery)"
    }
}

/// A command line that could not be carried out.
struct CommandError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

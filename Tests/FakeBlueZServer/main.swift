import BlueZTestSupport
import DBusTestSupport
import Foundation

// A fake bluetoothd on a private bus, for benchmarks and soak runs that run
// estimator processes on a machine without Bluetooth (mk/cli.mk's bench-pick,
// mk/soak.mk): prints the bus address (DBUS_SYSTEM_BUS_ADDRESS for them),
// then serves it until its standard input closes. Lines on standard input:
//
//   peers N MS [CHANNEL]   N peers in CHANNEL (default 1) on hci0, each heard
//                          every MS milliseconds with a new card each time
//                          (names Peer1...PeerN); replaces the previous feed
//   peers 0                no more peers
//
// Each command is answered with one line: "ok ..." or "error ...".
let bus = try await TestBus.start()
let fake = try await FakeBlueZ.start(on: bus, adapters: ["hci0"])
print(bus.address)
fflush(nil)
// The calls are not looked at; drain them so nothing piles up.
let drain = Task { for await _ in fake.calls {} }

/// Every card's hex form (DESIGN §2), so each round shows a different card.
let cards = ["00", "7F", "01", "02", "03", "05", "08", "0D", "14", "28", "64", "FD", "FE"]

/// Carries out one command line; the running feed, if any, is `feed`.
func answer(_ line: String, _ feed: inout Task<Void, Never>?) -> String {
    let words = line.split(separator: " ")
    guard words.first == "peers", (2...4).contains(words.count), let count = Int(words[1]), (0...4096).contains(count)
    else { return "error: expected `peers N MS [CHANNEL]`" }
    feed?.cancel()
    feed = nil
    guard count > 0 else { return "ok no peers" }
    guard words.count >= 3, let milliseconds = Int(words[2]), milliseconds > 0,
          let channel = words.count == 4 ? UInt8(words[3]) : 1
    else { return "error: expected `peers N MS [CHANNEL]`, MS > 0, CHANNEL 0-255" }
    let prefix = "01" + String(format: "%02X", channel)
    feed = fake.feedDevices(count: count, every: .milliseconds(milliseconds),
                            uuids: ["FB3367FD-09F8-4E08-9F6B-07E309FD2576"]) { device, round in
        prefix + cards[(device + round) % cards.count] + "Peer\(device + 1)"
    }
    return "ok \(count) peers in channel \(channel), each every \(milliseconds) ms"
}

await Task.detached {
    var feed: Task<Void, Never>?
    while let line = readLine() {
        print(answer(line, &feed))
        fflush(nil)
    }
    feed?.cancel()
}.value
drain.cancel()
bus.kill()

import BlueZTestSupport
import DBusTestSupport
import Foundation

// A fake bluetoothd on a private bus, for benchmarks that run estimator
// processes on a machine without Bluetooth (mk/cli.mk's bench-pick, mk/soak.mk,
// mk/bench.mk's bench-session): prints the bus address
// (DBUS_SYSTEM_BUS_ADDRESS for them), then serves it until its standard input
// closes. Each line on standard input is a command, answered with one line,
// "ok ..." or "error: ...":
//
//   advertisers N MS K [CHANNEL [VERSION]]   see AdvertisersCommand
let bus = try await TestBus.start()
let fake = try await FakeBlueZ.start(on: bus, adapters: ["hci0"])
print(bus.address)
fflush(nil)
// The calls are not looked at; drain them so nothing piles up.
let drain = Task { for await _ in fake.calls {} }

await Task.detached {
    var room: Task<Void, Never>?
    while let line = readLine() {
        do throws(CommandError) {
            guard let command = try AdvertisersCommand(line) else { throw CommandError("unknown command") }
            room?.cancel()
            room = command.start(on: fake)
            print("ok \(command.summary)")
        } catch {
            print("error: \(error.message)")
        }
        fflush(nil)
    }
    room?.cancel()
}.value
drain.cancel()
bus.kill()

import BlueZTestSupport
import DBusTestSupport
import Foundation

// A fake bluetoothd on a private bus, for benchmarks that run estimator
// processes on a machine without Bluetooth (mk/cli.mk's bench-pick): prints
// the bus address (DBUS_SYSTEM_BUS_ADDRESS for them), then serves it until
// its standard input closes.
let bus = try await TestBus.start()
let fake = try await FakeBlueZ.start(on: bus, adapters: ["hci0"])
print(bus.address)
fflush(nil)
// The calls are not looked at; drain them so nothing piles up.
let drain = Task { for await _ in fake.calls {} }
await Task.detached { while readLine() != nil {} }.value
drain.cancel()
bus.kill()

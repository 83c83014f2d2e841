// bluez-probe: the BlueZ module on its own, for the real-stack rig
// (Tests/E2E/scenarios/bluez.sh). One line per event on stdout, each starting
// with a word and the wall-clock time in milliseconds, so a scenario can match
// lines and compute latencies across processes:
//
//   bluez-probe advertise hciN NAME UUID    "registered T MS" then, per stdin line
//                                           "name X": "updated T X"; "stop": "stopped T"
//   bluez-probe discover hciN UUID          "seen T ADDRESS RSSI NAME"; per stdin line
//                                           "restart": the scan restarted, "restarted T"
//   bluez-probe adapters                    "adapter T hciN ADDRESS powered=… free=…"
//   bluez-probe kernel                      "controller T hciN ADDRESS up=… running=…"
//
// Failures print "error T KIND NAME" and exit 1.
import BlueZ
import Foundation

func wallMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}

func say(_ words: String...) {
    // Unbuffered: the scenario reads each line as it comes.
    let line = ([words[0], String(wallMilliseconds())] + words.dropFirst()).joined(separator: " ")
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ error: any Error) -> Never {
    if let error = error as? BlueZError {
        say("error", "\(error.kind)", error.name?.rawValue ?? "-", error.message)
    } else {
        say("error", "other", "-", "\(error)")
    }
    exit(1)
}

/// Lines of standard input, read off the cooperative pool.
func standardInputLines() -> AsyncStream<String> {
    AsyncStream { continuation in
        Thread.detachNewThread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
    }
}

func advertise(adapter name: String, localName: String, uuid: String) async throws {
    let adapter = try await BlueZ.system().adapter(name)
    let started = ContinuousClock.now
    let handle = try await adapter.advertise(Advertisement(serviceUUIDs: [uuid], localName: localName))
    let elapsed = ContinuousClock.now - started
    say("registered", String(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
    Task {
        for await event in handle.events { say("ended", "\(event)") }
    }
    for await line in standardInputLines() {
        if line.hasPrefix("name ") {
            let newName = String(line.dropFirst(5))
            try await handle.update(localName: newName, manufacturerData: nil)
            say("updated", newName)
        } else if line == "stop" {
            await handle.stop()
            say("stopped")
        }
    }
}

func discover(adapter name: String, uuid: String) async throws {
    let adapter = try await BlueZ.system().adapter(name)
    let discovery = try await adapter.discover(serviceUUIDs: [uuid])
    say("discovering")
    // The module restarts nothing by itself, and the scenario says when: a
    // restart makes advertisers still on the air reported anew, and between
    // restarts an advertiser's start is heard as it happens (air.sh), which a
    // restart's gap could hide.
    let restarts = Task {
        for await line in standardInputLines() where line == "restart" {
            do {
                try await discovery.pause()
                try await discovery.resume()
            } catch {
                fail(error)
            }
            say("restarted")
        }
    }
    defer { restarts.cancel() }
    for try await sighting in discovery {
        say("seen", sighting.address, sighting.rssi.map(String.init) ?? "-", sighting.localName ?? "-")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch (arguments.first, arguments.count) {
    case ("advertise", 4):
        try await advertise(adapter: arguments[1], localName: arguments[2], uuid: arguments[3])
    case ("discover", 3):
        try await discover(adapter: arguments[1], uuid: arguments[2])
    case ("adapters", 1):
        for adapter in try await BlueZ.system().adapters() {
            say("adapter", adapter.name, adapter.address, "powered=\(adapter.isPowered)",
                "free=\(adapter.advertising.map { String($0.free) } ?? "-")")
        }
    case ("kernel", 1):
        for controller in try KernelController.all() {
            say("controller", controller.name, controller.address, "up=\(controller.isUp)",
                "running=\(controller.isRunning)")
        }
    default:
        FileHandle.standardError.write(Data("usage: bluez-probe advertise|discover|adapters|kernel …\n".utf8))
        exit(64)
    }
} catch {
    fail(error)
}

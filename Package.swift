// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "estimator",
    products: [
        .executable(name: "estimator", targets: ["estimator"]),
        .executable(name: "estimator-relay", targets: ["estimator-relay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // System-library shims: the bottom layer (docs/ARCHITECTURE.md, Layers).
        .systemLibrary(
            name: "CDBus", path: "Sources/CDBus",
            pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(
            name: "CBluetooth", path: "Sources/CBluetooth",
            providers: [.apt(["libbluetooth-dev"])]),
        // libmosquitto ships only as a shared library in Debian, so only the
        // relay links it (docs/ARCHITECTURE.md, Relay).
        .systemLibrary(
            name: "CMosquitto", path: "Sources/CMosquitto",
            pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),

        // Typed libdbus layer: knows nothing of Bluetooth.
        .target(name: "DBus", dependencies: ["CDBus", "CNoSocketActivation", "Threads"]),
        // A detached thread for a blocking loop, off Swift's cooperative pool:
        // the D-Bus event loop's and the session's (watch inputs, signals);
        // and the session's loop, the executor of its actors and tasks.
        .target(name: "Threads"),
        // Children that inherit nothing but what they are given: the session,
        // the relay and the tests' dbus-daemons (posix_spawn's closefrom).
        .target(name: "CSpawn"),
        // org.bluez client: knows nothing of poker.
        .target(name: "BlueZ", dependencies: ["DBus", "CBluetooth", "Threads"]),
        // An MQTT broker client over libmosquitto: knows nothing of poker.
        .target(name: "Relay", dependencies: ["CMosquitto", "Retry"]),
        // When to try again after a failure (exponential, with jitter): the
        // broker client's reconnects and the session's relay restarts.
        .target(name: "Retry"),
        // Cards, packets, peer table, stats, terminal text: pure, no I/O.
        .target(name: "EstimatorKit"),
        // When the radio restarts, pauses, announces and ticks: a state
        // machine over events and the time they came, pure. Knows nothing of
        // BlueZ, files or threads.
        .target(name: "RadioScheduling", dependencies: ["EstimatorKit"]),
        // The session as a state machine over events and the time they
        // came: the room, the round's result, the timer, what goes on the
        // air, the words of its answers; pure. Knows nothing of the radio,
        // sockets, files or threads.
        .target(name: "SessionCore", dependencies: ["EstimatorKit", "Rendering"]),
        // The one clock of a process: the system's (on the session's loop
        // when it runs there); the tests bring a manual one. Knows
        // nothing of the radio or the session.
        .target(name: "Clocks", dependencies: ["EstimatorKit", "Threads"]),
        // The session's radio: runs the schedule on BlueZ (the executor, its
        // restarts after a loss), or no radio at all. Knows nothing of the
        // session, its control socket or the command line.
        .target(name: "Radio", dependencies: ["RadioScheduling", "Clocks", "BlueZ", "EstimatorKit", "Threads"]),
        // The session process: the `Session` actor, its control socket and
        // client, config, history and backlog files, the relay's supervision,
        // the process's wiring. Knows nothing of the command line.
        .target(
            name: "SessionDaemon",
            dependencies: [
                "SessionCore", "Radio", "RadioScheduling", "Clocks", "BlueZ", "EstimatorKit", "Rendering", "Retry", "Threads",
                "CSpawn",
            ]),
        // `watch` and `join --foreground`: the live table and board from a
        // session's stream or the air, the keyboard. Knows nothing of the
        // command line.
        .target(
            name: "Watch",
            dependencies: ["SessionDaemon", "SessionCore", "Radio", "RadioScheduling", "Clocks", "BlueZ", "EstimatorKit", "Rendering", "Threads"]),
        // `doctor`'s checks of bluetoothd, the adapter, rfkill and the relay.
        // Knows nothing of the command line.
        .target(name: "Diagnostics", dependencies: ["SessionDaemon", "Radio", "RadioScheduling", "BlueZ", "EstimatorKit"]),
        // The commands and their wiring: reads the command line, runs the
        // libraries above.
        .executableTarget(
            name: "estimator",
            dependencies: [
                "SessionDaemon", "Watch", "Diagnostics", "Clocks", "EstimatorKit", "BlueZ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The relay's poker: which packets go to which broker topics and which
        // messages come back to the session; pure, the relay's loop does the I/O.
        .target(name: "RelayBridging", dependencies: ["Relay", "EstimatorKit"]),
        // The relay process: a session's packets to and from the broker, over
        // the session's control socket (docs/ARCHITECTURE.md, Relay).
        .executableTarget(
            name: "estimator-relay",
            dependencies: [
                "RelayBridging", "Relay", "EstimatorKit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(
            name: "EstimatorKitTests",
            dependencies: [
                "EstimatorKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "DBusTestSupport", "Threads"]),
        .testTarget(name: "SessionCoreTests", dependencies: ["SessionCore", "EstimatorKit"]),
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ", "DBus", "DBusTestSupport", "BlueZTestSupport"]),
        .testTarget(
            name: "estimatorTests",
            dependencies: [
                "estimator", "SessionDaemon", "SessionCore", "Watch", "Diagnostics", "Radio", "RadioScheduling", "Clocks",
                "EstimatorKit", "Rendering", "BlueZ", "DBus", "Threads", "DBusTestSupport", "BlueZTestSupport",
            ]),

        // Live-table redraw cost against a full redraw.
        .executableTarget(
            name: "table-bench", dependencies: ["EstimatorKit", "Rendering"], path: "Benchmarks/TableBench"),
        // A private dbus-daemon for tests (the BlueZ tests host their fake org.bluez on it).
        .target(name: "DBusTestSupport", dependencies: ["DBus", "CSpawn"], path: "Tests/DBusTestSupport"),

        // A fake org.bluez on a private bus, for the BlueZ tests and the CLI's subprocess tests.
        .target(name: "BlueZTestSupport", dependencies: ["BlueZ", "DBus", "DBusTestSupport"], path: "Tests/BlueZTestSupport"),

        // The fake org.bluez as a process, for mk/cli.mk's bench-pick.
        .executableTarget(
            name: "fake-bluez", dependencies: ["BlueZTestSupport", "DBusTestSupport"], path: "Tests/FakeBlueZServer"),

        // The BlueZ module on its own in the real-stack rig (Tests/E2E/scenarios/bluez.sh).
        .executableTarget(name: "bluez-probe", dependencies: ["BlueZ"], path: "Tests/E2E/BlueZProbe"),
        // Our receiver in the D-Bus signal benchmark (`make bench`).
        .executableTarget(name: "dbus-signal-bench", dependencies: ["DBus"], path: "Benchmarks/DBusSignalBench"),
        // The libsystemd entry points static libdbus-1.a needs, answering "no
        // socket activation" (the shipped binary is fully static: mk/cli.mk).
        .target(name: "CNoSocketActivation"),
        // The live table, `watch`'s change lines and JSON, log timestamps: the
        // estimator layer's rendering, pure (a library so table-bench links it).
        .target(name: "Rendering", dependencies: ["EstimatorKit"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "EstimatorKit"]),
        // The man pages, from the commands' help (`make man`): ArgumentParser's
        // generate-manual plugin drops every character beyond ASCII.
        .executableTarget(name: "manual-pages", path: "Tools/ManualPages"),
        .testTarget(name: "RelayTests", dependencies: ["RelayBridging", "Relay", "Retry", "EstimatorKit"]),
    ]
)

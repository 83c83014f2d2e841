import DBus
import DBusTestSupport
import Synchronization

// BlueZ's names, spelled out: the fake stands for bluetoothd, not for our client of it.
private let adapterInterface = "org.bluez.Adapter1"
private let advertisingInterface = "org.bluez.LEAdvertisingManager1"
private let advertisementInterface = "org.bluez.LEAdvertisement1"
private let deviceInterface = "org.bluez.Device1"
private let objectManagerInterface = "org.freedesktop.DBus.ObjectManager"
private let propertiesInterface = "org.freedesktop.DBus.Properties"


/// A stand-in for bluetoothd on a private bus (the BlueZ tests, and the CLI tests
/// that run the built binary with `DBUS_SYSTEM_BUS_ADDRESS` pointed at that bus), for what the real one cannot be
/// made to do on demand: refuse with each of its errors, release an advertisement,
/// lose an adapter, go away and come back, hold a registration's reply.
///
/// It owns `org.bluez`, serves `GetManagedObjects`, `Adapter1` and
/// `LEAdvertisingManager1` the way BlueZ 5.66 does (including reading a registered
/// advertisement back with `GetAll` and following its `PropertiesChanged`), and
/// reports what clients did as a stream of `Call`s.
public final class FakeBlueZ: Sendable {
    /// What a client asked of the fake, in order.
    public enum Call: Sendable, Equatable {
        case setDiscoveryFilter([String: Value])
        case startDiscovery, stopDiscovery
        /// `Adapter1.RemoveDevice` of this device.
        case removeDevice(ObjectPath)
        case registered(ObjectPath, properties: [String: Value])
        case unregistered(ObjectPath)
        /// A registered advertisement's property changed (BlueZ re-reads it).
        case advertisementChanged(ObjectPath, [String: Value])
    }

    struct AdapterState: Sendable {
        var address: String
        var powered = true
        var supportedInstances = 5
        /// Whether the controller has extended advertising.
        var extended = false
        var advertisements: [ObjectPath: String] = [:]  // path -> owner
    }

    public let connection: Connection
    public let calls: AsyncStream<Call>
    private let callContinuation: AsyncStream<Call>.Continuation
    private let adapters: Mutex<[String: AdapterState]>
    private let devices = Mutex<[ObjectPath: [String: [String: Value]]]>([:])
    private let exported = Mutex<[ObjectPath: ExportedObject]>([:])
    private let watchers = Mutex<[Task<Void, Never>]>([])
    private let changeHandlers = Mutex<[SignalHandler]>([])
    /// How many `PropertiesChanged` of advertisements this BlueZ has read so far.
    public var advertisementChangesRead: Int { changesRead.load(ordering: .sequentiallyConsistent) }
    private let changesRead = Atomic<Int>(0)
    /// The `RegisterAdvertisement` replies held back (`holdRegistrations`).
    private let heldReplies = Mutex<(holding: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Starts a fake bluetoothd with adapters `hci0`, `hci1`, … on `bus`;
    /// those in `extended` have controllers with extended advertising.
    public static func start(on bus: TestBus, adapters names: [String] = ["hci0"], extended: Set<String> = [])
        async throws -> FakeBlueZ
    {
        let fake = FakeBlueZ(connection: try await bus.connect(), adapters: names, extended: extended)
        try await fake.exportRoot()
        for name in names { try await fake.exportAdapter(name) }
        let reply = try await fake.connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName", "org.bluez", UInt32(4))  // DBUS_NAME_FLAG_DO_NOT_QUEUE
        guard try reply.decode(UInt32.self) == 1 else {  // DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
            throw DBusError(name: .failed, message: "org.bluez is taken")
        }
        return fake
    }

    private init(connection: Connection, adapters names: [String], extended: Set<String>) {
        self.connection = connection
        var states: [String: AdapterState] = [:]
        for (index, name) in names.enumerated() {
            states[name] = AdapterState(address: "00:AA:01:0\(index):00:0\(index)", extended: extended.contains(name))
        }
        adapters = Mutex(states)
        (calls, callContinuation) = AsyncStream.makeStream()
    }

    /// bluetoothd crashing: its connection closes without a word.
    public func crash() {
        for task in watchers.withLock({ $0 }) { task.cancel() }
        for handler in changeHandlers.withLock({ $0 }) { handler.cancel() }
        connection.close()
        callContinuation.finish()
    }

    // MARK: - Objects

    public static func adapterPath(_ name: String) -> ObjectPath { ObjectPath("/org/bluez/\(name)")! }

    public func interfaces(of name: String) -> [String: [String: Value]]? {
        guard let state = adapters.withLock({ $0[name] }) else { return nil }
        var advertising: [String: Value] = [
            "SupportedInstances": .byte(UInt8(state.supportedInstances)),
            "ActiveInstances": .byte(UInt8(state.advertisements.count)),
        ]
        // As a bluetoothd without --experimental shows an extended controller.
        if state.extended { advertising["SupportedSecondaryChannels"] = .array(element: .string, [.string("1M")]) }
        return [
            adapterInterface: [
                "Address": .string(state.address), "Alias": .string("fake \(name)"),
                "Powered": .boolean(state.powered), "Discovering": .boolean(false),
                "Roles": .array(element: .string, [.string("central"), .string("peripheral")]),
            ],
            advertisingInterface: advertising,
        ]
    }

    private func exportRoot() async throws {
        let object = try await connection.export(
            .root,
            interfaces: [
                Interface(objectManagerInterface, methods: [
                    Method("GetManagedObjects", output: "a{oa{sa{sv}}}") { [weak self] _ in
                        guard let self else { return [] }
                        let names = adapters.withLock { Array($0.keys) }
                        var objects = devices.withLock { $0 }
                        for name in names { objects[Self.adapterPath(name)] = interfaces(of: name) }
                        return [try objects.toValue()]
                    }
                ])
            ], caller: .anyone)
        exported.withLock { $0[.root] = object }
    }

    private func exportAdapter(_ name: String) async throws {
        guard let interfaces = interfaces(of: name) else { return }
        let object = try await connection.export(
            Self.adapterPath(name),
            interfaces: [
                Interface(adapterInterface, methods: [
                    Method("SetDiscoveryFilter", input: "a{sv}") { [weak self] call in
                        self?.callContinuation.yield(.setDiscoveryFilter(try call.decode([String: Value].self)))
                        return []
                    },
                    Method("StartDiscovery") { [weak self] _ in
                        guard let self else { return [] }
                        try requirePowered(name)
                        callContinuation.yield(.startDiscovery)
                        return []
                    },
                    Method("StopDiscovery") { [weak self] _ in
                        self?.callContinuation.yield(.stopDiscovery)
                        return []
                    },
                    Method("RemoveDevice", input: "o") { [weak self] call in
                        let device = try call.decode(ObjectPath.self)
                        self?.callContinuation.yield(.removeDevice(device))
                        return []
                    },
                ], properties: Self.properties(interfaces[adapterInterface]!)),
                Interface(
                    advertisingInterface,
                    methods: [
                        Method("RegisterAdvertisement", input: "oa{sv}") { [weak self] call in
                            try await self?.register(call, on: name)
                            return []
                        },
                        Method("UnregisterAdvertisement", input: "o") { [weak self] call in
                            try self?.unregister(call, on: name)
                            return []
                        },
                    ], properties: Self.properties(interfaces[advertisingInterface]!)),
            ], caller: .anyone)
        exported.withLock { $0[Self.adapterPath(name)] = object }
    }

    private static func properties(_ values: [String: Value]) -> [Property] {
        values.sorted { $0.key < $1.key }.map { Property($0.key, $0.value) }
    }

    private func requirePowered(_ name: String) throws {
        guard adapters.withLock({ $0[name]?.powered }) == true else {
            throw DBusError(name: "org.bluez.Error.NotReady", message: "Resource Not Ready")
        }
    }

    // MARK: - Advertising, as BlueZ 5.66's src/advertising.c does it

    private func register(_ call: Message, on name: String) async throws {
        let (path, _) = try call.decode(ObjectPath.self, [String: Value].self)
        let owner = call.sender ?? ""
        try adapters.withLock { adapters throws(DBusError) in
            guard var state = adapters[name] else { throw DBusError(name: .unknownObject, message: "") }
            if state.advertisements[path] != nil {
                throw DBusError(name: "org.bluez.Error.AlreadyExists", message: "Already Exists")
            }
            guard state.advertisements.count < state.supportedInstances else {
                throw DBusError(name: "org.bluez.Error.NotPermitted", message: "Maximum advertisements reached")
            }
            state.advertisements[path] = owner
            adapters[name] = state
        }
        // Follow the object's changes first, then read it: nothing falls between.
        // Changes are taken on the reading thread in bus order, as bluetoothd
        // takes them before it answers the next message (`changesRead`).
        let continuation = callContinuation
        let changes = try await connection.handleSignals(matchingAny: [MatchRule(
            sender: owner, path: path, interface: propertiesInterface, member: "PropertiesChanged")]
        ) { [weak self] change in
            guard let (_, changed, _) = try? change.decode(String.self, [String: Value].self, [String].self) else { return }
            self?.changesRead.add(1, ordering: .sequentiallyConsistent)
            continuation.yield(.advertisementChanged(path, changed))
        }
        let reply = try await connection.call(
            destination: owner, path: path, interface: propertiesInterface, member: "GetAll", advertisementInterface)
        let properties = try reply.decode([String: Value].self)
        callContinuation.yield(.registered(path, properties: properties))
        // As BlueZ does: a client leaving the bus takes its advertisements with it.
        let owners = try await connection.nameOwner(of: owner)
        let ownerWatch = Task { [weak self] in
            do {
                for try await current in owners where current == nil {
                    self?.dropAdvertisements(of: owner)
                    return
                }
            } catch {}
        }
        changeHandlers.withLock { $0.append(changes) }
        watchers.withLock { $0.append(ownerWatch) }
        await replyWhenReleased()
    }

    /// Holds the reply of every `RegisterAdvertisement` from now on until
    /// `releaseRegistrations`, the registration itself made and reported
    /// (`Call.registered`): bluetoothd's reply on its way (the kernel's
    /// Add Advertising under way) while the adapter changes.
    public func holdRegistrations() { heldReplies.withLock { $0.holding = true } }

    /// Sends the replies held, and holds no more.
    public func releaseRegistrations() {
        let waiting = heldReplies.withLock { held in
            defer { held = (false, []) }
            return held.waiting
        }
        for reply in waiting { reply.resume() }
    }

    private func replyWhenReleased() async {
        await withCheckedContinuation { reply in
            let held = heldReplies.withLock { held in
                if held.holding { held.waiting.append(reply) }
                return held.holding
            }
            if !held { reply.resume() }
        }
    }

    private func dropAdvertisements(of owner: String) {
        let dropped = adapters.withLock { adapters -> [ObjectPath] in
            var dropped: [ObjectPath] = []
            for name in adapters.keys {
                for (path, client) in adapters[name]!.advertisements where client == owner {
                    adapters[name]!.advertisements[path] = nil
                    dropped.append(path)
                }
            }
            return dropped
        }
        for path in dropped { callContinuation.yield(.unregistered(path)) }
    }

    private func unregister(_ call: Message, on name: String) throws {
        let path = try call.decode(ObjectPath.self)
        try adapters.withLock { adapters throws(DBusError) in
            guard adapters[name]?.advertisements.removeValue(forKey: path) != nil else {
                throw DBusError(name: "org.bluez.Error.DoesNotExist", message: "Does Not Exist")
            }
        }
        callContinuation.yield(.unregistered(path))
    }

    /// BlueZ dropping every advertisement of `name`: it calls `Release` on each.
    public func releaseAdvertisements(of name: String) async throws {
        let released = adapters.withLock { adapters -> [ObjectPath: String] in
            defer { adapters[name]?.advertisements = [:] }
            return adapters[name]?.advertisements ?? [:]
        }
        for (path, owner) in released {
            let message = try Message.methodCall(
                destination: owner, path: path, interface: advertisementInterface, member: "Release")
            try connection.send(message)
        }
    }

    // MARK: - Adapters and devices

    /// Sets `Powered`; the exported property emits `PropertiesChanged` as BlueZ does.
    public func setPowered(_ name: String, _ powered: Bool) throws {
        adapters.withLock { $0[name]?.powered = powered }
        try exported.withLock { $0[Self.adapterPath(name)] }?.setProperty("Powered", .boolean(powered), interface: adapterInterface)
    }

    /// The owner of the advertisements `fillAdvertisingSlots` makes.
    private static let otherPrograms = ":0.0"

    /// How many advertisements `name` holds (its `ActiveInstances`).
    public func activeAdvertisements(of name: String) -> Int {
        adapters.withLock { $0[name]?.advertisements.count ?? 0 }
    }

    /// Fills every advertising slot of `name`, as other programs would.
    public func fillAdvertisingSlots(of name: String) {
        adapters.withLock { adapters in
            guard var state = adapters[name] else { return }
            while state.advertisements.count < state.supportedInstances {
                state.advertisements[ObjectPath("/other/ad\(state.advertisements.count)")!] = Self.otherPrograms
            }
            adapters[name] = state
        }
    }

    /// The other programs' advertisements gone: the slots they held are free.
    public func freeAdvertisingSlots(of name: String) {
        adapters.withLock { adapters in
            guard var state = adapters[name] else { return }
            state.advertisements = state.advertisements.filter { $0.value != Self.otherPrograms }
            adapters[name] = state
        }
    }

    /// An adapter unplugged: Release for its advertisements, then InterfacesRemoved.
    public func removeAdapter(_ name: String) async throws {
        try await releaseAdvertisements(of: name)
        adapters.withLock { _ = $0.removeValue(forKey: name) }
        exported.withLock { $0.removeValue(forKey: Self.adapterPath(name)) }?.unexport()
        try connection.emit(
            path: .root, interface: objectManagerInterface, member: "InterfacesRemoved",
            Self.adapterPath(name), [adapterInterface, advertisingInterface])
    }

    /// An adapter plugged in: InterfacesAdded.
    public func addAdapter(_ name: String) async throws {
        adapters.withLock { $0[name] = AdapterState(address: "00:AA:01:09:00:09") }
        try await exportAdapter(name)
        try connection.emit(
            path: .root, interface: objectManagerInterface, member: "InterfacesAdded",
            Self.adapterPath(name), interfaces(of: name)!)
    }

    /// A device heard for the first time under `adapter`: InterfacesAdded of `Device1`.
    /// `flags` is the advertisement's flags byte (`AdvertisingFlags`), when it has one.
    public func deviceFound(_ id: String, on adapter: String = "hci0", name: String?, rssi: Int16, uuids: [String],
                            flags: UInt8? = nil) throws {
        var properties = Self.device(id, on: adapter, name, rssi, uuids)
        if let flags { properties["AdvertisingFlags"] = .array(element: .byte, [.byte(flags)]) }
        try connection.emit(
            path: .root, interface: objectManagerInterface, member: "InterfacesAdded",
            devicePath(id, on: adapter), [deviceInterface: properties])
    }

    /// A device BlueZ already has when a client asks (heard recently when `rssi` is set).
    public func addDevice(_ id: String, on adapter: String = "hci0", name: String?, rssi: Int16?, uuids: [String]) {
        let properties = Self.device(id, on: adapter, name, rssi, uuids)
        devices.withLock { $0[devicePath(id, on: adapter)] = [deviceInterface: properties] }
    }

    private static func device(_ id: String, on adapter: String, _ name: String?, _ rssi: Int16?, _ uuids: [String]) -> [String: Value] {
        var properties: [String: Value] = [
            "Address": .string(id), "Adapter": .objectPath(adapterPath(adapter)),
            "UUIDs": .array(element: .string, uuids.map { .string($0) }),
        ]
        if let name { properties["Name"] = .string(name) }
        // As BlueZ: the name, else the address with dashes (clients such as bleak read it).
        properties["Alias"] = .string(name ?? id.replacingOccurrences(of: ":", with: "-"))
        if let rssi { properties["RSSI"] = .int16(rssi) }
        return properties
    }

    /// A known device heard again, or its properties changed.
    public func deviceChanged(_ id: String, on adapter: String = "hci0", _ changed: [String: Value], invalidated: [String] = []) throws {
        try connection.emit(
            path: devicePath(id, on: adapter), interface: propertiesInterface, member: "PropertiesChanged",
            deviceInterface, changed, invalidated)
    }

    public func devicePath(_ id: String, on adapter: String) -> ObjectPath {
        ObjectPath("/org/bluez/\(adapter)/dev_" + id.replacingOccurrences(of: ":", with: "_"))!
    }
}

import DBus
import Testing

/// Marshalling through libdbus without a bus: write into a message, read back.
@Suite struct ValueTests {
    /// Computed, not stored: a global holding indirect enum payloads (pointers with tag
    /// bits) reads as a leak to LeakSanitizer at exit.
    static var everyType: [Value] { [
        .byte(0xFF), .boolean(true), .boolean(false), .int16(-32768), .uint16(65535),
        .int32(Int32.min), .uint32(UInt32.max), .int64(Int64.min), .uint64(UInt64.max),
        .double(-1.5), .string(""), .string("전수열 ☕"), .objectPath("/org/bluez/hci0"),
        .signature("a{sv}"),
        .variant(.int16(-60)),
        .variant(.variant(.string("nested"))),
        .array(element: .string, []),
        .array(element: .int32, [.int32(1), .int32(2)]),
        .array(element: .array(.byte), [.array(element: .byte, [.byte(1)]), .array(element: .byte, [])]),
        .dictionary(key: .string, value: .variant, [.string("Name"): .variant(.string("x")), .string("RSSI"): .variant(.int16(-40))]),
        .dictionary(key: .uint16, value: .variant, [:]),
        .dictionary(key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)),
                    [.objectPath("/a"): .dictionary(key: .string, value: .dictionary(key: .string, value: .variant), [:])]),
        .structure([.string("a"), .int32(1), .structure([.double(2), .array(element: .variant, [.variant(.boolean(true))])])]),
        .array(element: .structure([.string, .variant]), [.structure([.string("k"), .variant(.uint64(7))])]),
    ] }

    @Test func everyTypeRoundTripsThroughLibdbus() throws {
        let message = try Message.signal(path: "/t", interface: "org.example.T", member: "S")
        try message.append(contentsOf: Self.everyType)
        #expect(message.signature.rawValue == Self.everyType.map(\.type.signature).joined())
        #expect(try message.values() == Self.everyType)
    }

    @Test func deepNestingRoundTrips() throws {
        var value = Value.int32(42)
        for depth in 0..<30 { value = depth.isMultiple(of: 2) ? .variant(value) : .structure([value]) }
        let message = try Message.signal(path: "/t", interface: "org.example.T", member: "S")
        try message.append(contentsOf: [value])
        #expect(try message.values() == [value])
    }

    @Test func typedValuesRoundTrip() throws {
        let message = try Message.signal(path: "/t", interface: "org.example.T", member: "S")
        let properties: [String: Value] = ["Name": .string("Alice"), "RSSI": .int16(-50)]
        let objects: [ObjectPath: [String: [String: Value]]] = ["/org/bluez/hci0": ["org.bluez.Adapter1": ["Powered": .boolean(true)]]]
        try message.append("org.bluez.Device1", properties, ["Alias"], objects, [UInt8](arrayLiteral: 1, 2, 3), true, 1.25)
        #expect(message.signature.rawValue == "sa{sv}asa{oa{sa{sv}}}aybd")
        let (interface, changed, invalidated, decoded, bytes, flag, number) = try message.decode(
            String.self, [String: Value].self, [String].self, [ObjectPath: [String: [String: Value]]].self,
            [UInt8].self, Bool.self, Double.self)
        #expect(interface == "org.bluez.Device1")
        #expect(changed == properties)
        #expect(invalidated == ["Alias"])
        #expect(decoded == objects)
        #expect(bytes == [1, 2, 3])
        #expect(flag && number == 1.25)
        #expect(changed["RSSI"]?.integer == -50)
    }

    @Test func membersAndStringsCompareInPlace() throws {
        let message = try Message.signal(path: "/t", interface: "org.example.T", member: "PropertiesChanged")
        try message.append("org.bluez.Device1", "org.bluez.Device", Int32(1))
        #expect(message.hasMember("PropertiesChanged"))
        #expect(!message.hasMember("PropertiesChange"))
        #expect(!message.hasMember("PropertiesChangedX"))
        var reader = message.makeReader()
        #expect(try reader.readString(equalTo: "org.bluez.Device1"))
        #expect(try !reader.readString(equalTo: "org.bluez.Device1"), "a prefix is not equal")
        #expect(throws: DBusError.self) { try reader.readString(equalTo: "1") }  // an int32, not a string
    }

    @Test func wrongSignatureIsAnErrorNotACrash() throws {
        let message = try Message.signal(path: "/t", interface: "org.example.T", member: "S")
        try message.append("text", Int32(5))
        #expect(throws: DBusError.self) { try message.decode(String.self, String.self) }
        #expect(throws: DBusError.self) { try message.decode(String.self) }  // extra argument
        #expect(throws: DBusError.self) { try message.decode(String.self, Int32.self, Int32.self) }  // missing one
        let error = #expect(throws: DBusError.self) { try message.decode([String: Value].self, Int32.self) }
        #expect(error?.name == .invalidSignature)
        #expect(error?.message.contains("a{sv}") == true)
    }

    @Test func emptyArraysAreTypeChecked() throws {
        let message = try Message.signal(path: "/t", interface: "org.example.T", member: "S")
        try message.append([[String]]())
        #expect(throws: DBusError.self) { try message.decode([[Int32]].self) }
        #expect(try message.decode([[String]].self) == [])
    }

    @Test func invalidValuesAreRejectedBeforeLibdbusSeesThem() throws {
        let message = try Message.signal(path: "/t", interface: "org.example.T", member: "S")
        #expect(throws: DBusError.self) { try message.append(contentsOf: [.array(element: .int32, [.string("x")])]) }
        #expect(throws: DBusError.self) { try message.append(contentsOf: [.structure([])]) }
        #expect(throws: DBusError.self) { try message.append(contentsOf: [.string("nul\0inside")]) }
        #expect(throws: DBusError.self) { try Message.signal(path: "/t", interface: "no-dots", member: "S") }
        #expect(throws: DBusError.self) { try Message.methodCall(destination: "bad..name", path: "/", interface: nil, member: "M") }
        // Literals are trusted (and trap if wrong); runtime strings are validated.
        for bad in ["/trailing/", "relative", "/double//slash", ""] { #expect(ObjectPath(bad) == nil) }
        for bad in ["a{vs}", "(", "z"] { #expect(Signature(bad) == nil) }
        #expect(ObjectPath(String("/ok/path")) != nil)
    }

    @Test func signaturesParseIntoTypes() throws {
        let type = try DBusType(parsing: "a{oa{sa{sv}}}")
        #expect(type == .dictionary(key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant))))
        #expect(type.signature == "a{oa{sa{sv}}}")
        #expect(Signature(String("sa{sv}as"))?.types == [.string, .dictionary(key: .string, value: .variant), .array(.string)])
        #expect(throws: DBusError.self) { try DBusType(parsing: "(") }
        #expect(throws: DBusError.self) { try DBusType(parsing: "ss") }
    }

    @Test func typedValuesConvertToDynamicValues() throws {
        #expect(try ["a": Int32(1)].toValue() == .dictionary(key: .string, value: .int32, [.string("a"): .int32(1)]))
        #expect(Value.array(element: .string, [.string("x")]).decode(as: [String].self) == ["x"])
        #expect(Value.int16(3).decode(as: String.self) == nil)
    }
}

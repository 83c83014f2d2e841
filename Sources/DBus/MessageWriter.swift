import CDBus

/// Appends arguments to a message under construction.
///
/// Every value is checked before it reaches libdbus (whose own checks abort the
/// process), so a bad value is a thrown `DBusError` and the message is discarded.
public struct MessageWriter {
    /// What the enclosing container allows next; checked before every append.
    private enum Slot {
        case any
        case each(DBusType)
        case entries(key: DBusType, value: DBusType)
        case sequence([DBusType], next: Int)
    }

    private var iter: DBusMessageIter
    private var slot: Slot
    private var written = 0

    init(appendingTo message: OpaquePointer) {
        iter = DBusMessageIter()
        slot = .any
        dbus_message_iter_init_append(message, &iter)
    }

    private init(iter: DBusMessageIter, slot: Slot) {
        self.iter = iter
        self.slot = slot
    }

    /// Refuses a value the container was not declared to hold.
    private mutating func accept(_ type: DBusType) throws(DBusError) {
        switch slot {
        case .any:
            break
        case .each(let element):
            guard type == element else { throw .invalidArguments("array of \(element) cannot hold a \(type)") }
        case .entries:
            throw .invalidArguments("a dictionary holds entries written with writeDictionaryEntry")
        case .sequence(let types, let next):
            guard next < types.count, types[next] == type else {
                throw .invalidArguments("expected \(next < types.count ? types[next].signature : "nothing more"), not \(type)")
            }
            slot = .sequence(types, next: next + 1)
        }
        written += 1
    }

    /// Appends a typed value.
    public mutating func write<T: DBusEncodable>(_ value: T) throws(DBusError) {
        try value.encode(to: &self)
    }

    /// Appends a value as its own type (a `.variant` case is written as a variant).
    public mutating func writeValue(_ value: Value) throws(DBusError) {
        try value.validate()
        try writeChecked(value)
    }

    /// Appends a structure whose fields `body` writes.
    /// Appends a structure with the given field types, written in order by `body`.
    public mutating func writeStructure(
        fields: [DBusType], _ body: (inout MessageWriter) throws(DBusError) -> Void
    ) throws(DBusError) {
        guard !fields.isEmpty else { throw .invalidArguments("a structure needs at least one field") }
        try accept(.structure(fields))
        try withContainer(TypeCode.structure, signature: nil, slot: .sequence(fields, next: 0), minimum: fields.count, body)
    }

    /// Appends a variant holding a value of `type`, written by `body`.
    public mutating func writeVariant(
        of type: DBusType, _ body: (inout MessageWriter) throws(DBusError) -> Void
    ) throws(DBusError) {
        try accept(.variant)
        try withContainer(TypeCode.variant, signature: type.signature, slot: .sequence([type], next: 0), minimum: 1, body)
    }

    /// Appends an array of `elementType` (for a dictionary pass its `.dictionary` type and
    /// write each entry with `writeDictionaryEntry`).
    public mutating func writeArray(
        of elementType: DBusType, _ body: (inout MessageWriter) throws(DBusError) -> Void
    ) throws(DBusError) {
        let signature: String
        let inner: Slot
        if case .dictionary(let key, let value) = elementType {
            try accept(elementType)
            signature = String(elementType.signature.dropFirst())  // the `{KV}` entry
            inner = .entries(key: key, value: value)
        } else {
            try accept(.array(elementType))
            signature = elementType.signature
            inner = .each(elementType)
        }
        try withContainer(TypeCode.array, signature: signature, slot: inner, minimum: 0, body)
    }

    /// Appends one `{key, value}` entry inside a dictionary's `writeArray`.
    public mutating func writeDictionaryEntry(_ body: (inout MessageWriter) throws(DBusError) -> Void) throws(DBusError) {
        guard case .entries(let key, let value) = slot else {
            throw .invalidArguments("a dictionary entry outside a dictionary")
        }
        written += 1
        try withContainer(TypeCode.dictEntry, signature: nil, slot: .sequence([key, value], next: 0), minimum: 2, body)
    }

    // MARK: - Basic values

    mutating func writeBasic(_ type: DBusType, _ value: DBusBasicValue) throws(DBusError) {
        try accept(type)
        let code = type.code
        var value = value
        guard dbus_message_iter_append_basic(&iter, code, &value) != 0 else { throw .outOfMemory }
    }

    mutating func writeString(_ type: DBusType, _ text: String) throws(DBusError) {
        try accept(type)
        let code = type.code
        if text.utf8.contains(0) { throw .invalidArguments("a D-Bus string cannot contain NUL") }
        let ok = text.withCString { pointer in
            var value = DBusBasicValue()
            value.str = UnsafeMutablePointer(mutating: pointer)
            return dbus_message_iter_append_basic(&iter, code, &value)
        }
        guard ok != 0 else { throw .outOfMemory }
    }

    // MARK: - Helpers

    /// Writes a value already validated by `Value.validate()`.
    private mutating func writeChecked(_ value: Value) throws(DBusError) {
        switch value {
        case .byte(let v): try v.encode(to: &self)
        case .boolean(let v): try v.encode(to: &self)
        case .int16(let v): try v.encode(to: &self)
        case .uint16(let v): try v.encode(to: &self)
        case .int32(let v): try v.encode(to: &self)
        case .uint32(let v): try v.encode(to: &self)
        case .int64(let v): try v.encode(to: &self)
        case .uint64(let v): try v.encode(to: &self)
        case .double(let v): try v.encode(to: &self)
        case .string(let v): try v.encode(to: &self)
        case .objectPath(let v): try v.encode(to: &self)
        case .signature(let v): try v.encode(to: &self)
        case .variant(let inner):
            try writeVariant(of: inner.type) { writer throws(DBusError) in try writer.writeChecked(inner) }
        case .array(let element, let items):
            try writeArray(of: element) { writer throws(DBusError) in
                for item in items { try writer.writeChecked(item) }
            }
        case .dictionary(let keyType, let valueType, let entries):
            try writeArray(of: .dictionary(key: keyType, value: valueType)) { writer throws(DBusError) in
                for (key, item) in entries {
                    try writer.writeDictionaryEntry { entry throws(DBusError) in
                        try entry.writeChecked(key)
                        try entry.writeChecked(item)
                    }
                }
            }
        case .structure(let fields):
            try writeStructure(fields: fields.map(\.type)) { writer throws(DBusError) in
                for field in fields { try writer.writeChecked(field) }
            }
        }
    }

    private mutating func withContainer(
        _ code: Int32, signature: String?, slot: Slot, minimum: Int,
        _ body: (inout MessageWriter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iter, code, $0, &sub) }
        } else {
            opened = dbus_message_iter_open_container(&iter, code, nil, &sub)
        }
        guard opened != 0 else { throw .outOfMemory }
        var writer = MessageWriter(iter: sub, slot: slot)
        do throws(DBusError) {
            try body(&writer)
            if writer.written < minimum { throw DBusError.invalidArguments("an incomplete variant, structure or entry") }
        } catch {
            dbus_message_iter_abandon_container(&iter, &writer.iter)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &writer.iter) != 0 else { throw .outOfMemory }
    }
}

// libFuzzer entry point over everything that reads bytes from the air:
// Packet decoding, TerminalText sanitising and width, name parsing and JSON
// quoting; and everything a control-socket client can send: the JSON parser
// and the control-request parser. Built by `make fuzz` together with the EstimatorKit sources, as
// one module.

/// Whether a terminal would act on any character of `s`: controls (C0, DEL,
/// C1), bidi overrides and isolates, line and paragraph separators. Written
/// out here, independent of `TerminalText`, so a mistake there shows.
private func actsOnTerminal(_ s: String) -> Bool {
    s.unicodeScalars.contains {
        $0.properties.generalCategory == .control || (0x202A...0x202E).contains($0.value)
            || (0x2066...0x2069).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
    }
}

private func check(_ condition: Bool, _ what: @autoclosure () -> String) {
    if !condition { fatalError(what()) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []

    let clean = TerminalText.sanitize(bytes: bytes)
    check(!actsOnTerminal(clean), "sanitize(bytes:) left a control in \(bytes)")
    check(TerminalText.sanitize(clean) == clean, "sanitize is not idempotent for \(bytes)")
    check(TerminalText.displayWidth(clean) <= 2 * clean.count, "width beyond 2 a character for \(bytes)")

    do throws(PacketDecodeError) {
        let packet = try Packet(decoding: bytes)
        check(!actsOnTerminal(TerminalText.sanitize(packet.name)), "a sanitised name keeps a control: \(bytes)")
        check((try? Packet(decoding: packet.localName)) == packet, "re-encoding changes \(bytes)")
        check(!actsOnTerminal(JSONText.quoted(packet.name)), "JSON leaves a control in \(bytes)")
    } catch {
        check(!actsOnTerminal(error.description), "an error message holds a control for \(bytes)")
    }

    let text = String(decoding: bytes, as: UTF8.self)
    if let name = try? PersonName.parse(text).name {
        check(!name.text.isEmpty && name.text.utf8.count <= PersonName.maxUTF8Count, "bad cut for \(bytes)")
        check(!actsOnTerminal(name.text), "a parsed name holds a control: \(bytes)")
    }

    if let value = try? JSONValue.parse(bytes) {
        check((try? JSONValue.parse(Array(value.text.utf8))) == value, "JSON does not round-trip: \(bytes)")
        check(!value.text.utf8.contains(0x0A), "JSON text holds a newline: \(bytes)")
    }
    do throws(ControlRequestError) {
        let request = try ControlRequest(parsing: bytes)
        check((try? ControlRequest(parsing: Array(request.serialized.utf8))) == request, "request does not round-trip: \(bytes)")
    } catch {
        check(!actsOnTerminal(error.description), "a request error holds a control for \(bytes)")
    }
    return 0
}

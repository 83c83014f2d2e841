// libFuzzer target `packet` (mk/fuzz.mk): the packet decoder, on bytes as they come from
// the air (a BLE local name), and what is done with a decoded name.

import EstimatorKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(data, count)
    do throws(PacketDecodeError) {
        let packet = try Packet(decoding: bytes)
        check(!actsOnTerminal(TerminalText.sanitize(packet.name)), "a sanitised name keeps a control: \(bytes)")
        // `bytes`, not `localName`: a name cut inside a character is sent on
        // with a lone lead byte, so it decodes cut again (docs/PROTOCOL.md, Packet).
        check((try? Packet(decoding: packet.bytes)) == packet, "re-encoding changes \(bytes)")
        check(!actsOnTerminal(JSONText.quoted(packet.name)), "JSON leaves a control in \(bytes)")
    } catch {
        check(!actsOnTerminal(error.description), "an error message holds a control for \(bytes)")
    }
    return 0
}

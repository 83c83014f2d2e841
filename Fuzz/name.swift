// libFuzzer target `name`: the terminal sanitiser and display width over any
// bytes, and the parser of a name typed by a person.

import EstimatorKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(data, count)
    let clean = TerminalText.sanitize(bytes: bytes)
    check(!actsOnTerminal(clean), "sanitize(bytes:) left a control in \(bytes)")
    check(TerminalText.sanitize(clean) == clean, "sanitize is not idempotent for \(bytes)")
    check(TerminalText.displayWidth(clean) <= 2 * clean.count, "width beyond 2 a character for \(bytes)")

    let text = String(decoding: bytes, as: UTF8.self)
    if let name = try? PersonName.parse(text).name {
        check(!name.text.isEmpty && name.text.utf8.count <= PersonName.maxUTF8Count, "bad cut for \(bytes)")
        check(!actsOnTerminal(name.text), "a parsed name holds a control: \(bytes)")
    }
    return 0
}

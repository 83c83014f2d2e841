// libFuzzer target `control`: everything a control-socket client can send,
// through the JSON parser and the control-request parser.

import EstimatorKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(data, count)
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

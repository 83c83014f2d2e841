// What every fuzz target asserts about text: nothing a terminal would act on
// survives sanitising. Compiled into each target with the EstimatorKit sources.

/// Whether a terminal would act on any character of `s`: controls (C0, DEL,
/// C1), bidi overrides and isolates, line and paragraph separators. Written
/// out here, independent of `TerminalText`, so a mistake there shows.
func actsOnTerminal(_ s: String) -> Bool {
    s.unicodeScalars.contains {
        $0.properties.generalCategory == .control || (0x202A...0x202E).contains($0.value)
            || (0x2066...0x2069).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
    }
}

/// Stops the run with `what` as the finding when `condition` fails.
func check(_ condition: Bool, _ what: @autoclosure () -> String) {
    if !condition { fatalError(what()) }
}

/// The fuzzer's input as bytes.
func fuzzInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
}

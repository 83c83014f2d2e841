/// A scalar-at-a-time recogniser of terminal escape sequences (ECMA-48 shapes,
/// as xterm parses them), passing on only the printable scalars outside them.
///
/// Where exactly a malformed sequence ends only decides which text is hidden;
/// the output never holds ESC or a C1 control, so no terminal can enter a
/// sequence from it.
struct EscapeFilter {
    private enum State {
        case text
        /// After ESC.
        case escape
        /// After ESC and intermediate bytes (`ESC ( B`).
        case escapeIntermediate
        /// Inside CSI, until its final byte.
        case controlSequence
        /// Inside OSC, DCS, SOS, PM or APC, until ST (`ESC \` or U+009C) or BEL.
        case controlString
    }

    private var state = State.text

    mutating func feed(_ scalar: Unicode.Scalar, emit: (Unicode.Scalar) -> Void) {
        let v = scalar.value
        switch state {
        case .text:
            break
        case .escape, .escapeIntermediate:
            if v == 0x1B { state = .escape; return }
            if v == 0x18 || v == 0x1A { state = .text; return }  // CAN, SUB abort
            if v < 0x20 { return }  // a terminal executes C0 here; we drop it
            if state == .escape, let next = Self.afterEscape(v) { state = next; return }
            if (0x20...0x2F).contains(v) { state = .escapeIntermediate; return }
            state = .text
            if (0x30...0x7E).contains(v) { return }  // final byte: sequence done
            // Anything else ends a malformed sequence and is itself text.
        case .controlSequence:
            if v == 0x1B { state = .escape; return }
            if v == 0x18 || v == 0x1A { state = .text; return }
            if v < 0x20 || (0x20...0x3F).contains(v) { return }
            state = .text
            if (0x40...0x7E).contains(v) { return }
        case .controlString:
            switch v {
            case 0x1B: state = .escape  // ESC \ is ST; any other ESC starts anew
            case 0x07, 0x9C, 0x18, 0x1A: state = .text
            default: break
            }
            return
        }
        // Text state (possibly just re-entered with this scalar).
        switch v {
        case 0x1B: state = .escape
        case 0x9B: state = .controlSequence
        case 0x90, 0x98, 0x9D, 0x9E, 0x9F: state = .controlString
        default:
            if !TerminalText.isRemoved(v) { emit(scalar) }
        }
    }

    /// The sequence ESC + `v` opens, if it opens a longer one.
    private static func afterEscape(_ v: UInt32) -> State? {
        switch v {
        case 0x5B: .controlSequence  // [
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: .controlString  // ] P X ^ _
        default: nil
        }
    }
}

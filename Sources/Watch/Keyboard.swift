import Glibc
import Threads

/// Single keys from the terminal for the foreground session and `watch`: the terminal
/// is put in non-canonical mode without echo (Ctrl-C still signals), and
/// restored by `restore()`.
final class Keyboard: @unchecked Sendable {
    // The keys that pick a card are my deck's: `CardKeys`.
    static let quit = UInt8(ascii: "q")
    /// Starts the next round.
    static let nextRound = UInt8(ascii: "r")
    /// Reveals the round for the whole room, voted or not.
    static let reveal = UInt8(ascii: "v")

    private var saved = termios()
    private let isTerminal: Bool

    init() {
        isTerminal = isatty(0) == 1 && tcgetattr(0, &saved) == 0
        guard isTerminal else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(0, TCSANOW, &raw)
    }

    func restore() {
        guard isTerminal else { return }
        var original = saved
        tcsetattr(0, TCSANOW, &original)
    }

    /// Keys as they are typed, read on their own thread; finishes at end of input.
    func keys() -> AsyncStream<UInt8> {
        let (stream, sink) = AsyncStream.makeStream(of: UInt8.self)
        LoopThread.spawn("the keyboard thread") {
            var byte: UInt8 = 0
            while true {
                let n = read(0, &byte, 1)
                if n < 0, errno == EINTR { continue }
                guard n == 1 else { break }
                sink.yield(byte)
            }
            sink.finish()
        }
        return stream
    }
}

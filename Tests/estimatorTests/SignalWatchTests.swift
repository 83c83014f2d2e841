import Glibc
import SessionDaemon
import Synchronization
import Testing
import Threads

@Suite(.serialized, .timeLimit(.minutes(1))) struct SignalWatchTests {
    /// A signal sent the moment the watch exists is caught: a session's
    /// watch is made just before `join` answers, and a script may signal
    /// the session at once.
    @Test func aSignalRightAfterTheWatchIsMadeIsCaught() async {
        for _ in 0..<20 {
            let watch = Mutex<SignalWatch?>(nil)
            await withCheckedContinuation { (caught: CheckedContinuation<Void, Never>) in
                let once = Mutex<CheckedContinuation<Void, Never>?>(caught)
                let made = SignalWatch(signals: [SIGUSR2]) { once.withLock { $0.take() }?.resume() }
                watch.withLock { $0 = made }
                kill(getpid(), SIGUSR2)
            }
            watch.withLock { $0 }?.cancel()
        }
    }

    /// Cancelled, the watch calls back no more and the signal is ignored
    /// (the process goes on).
    @Test func aCancelledWatchIgnoresTheSignal() async {
        let calls = Atomic<Int>(0)
        let watch = SignalWatch(signals: [SIGUSR2]) { calls.add(1, ordering: .relaxed) }
        watch.cancel()
        watch.cancel()
        kill(getpid(), SIGUSR2)
        #expect(calls.load(ordering: .relaxed) == 0)
    }

    /// On a loop, the watch calls back on the loop's thread.
    @Test func aWatchOnALoopCallsBackOnItsThread() async {
        let watch = Mutex<SignalWatch?>(nil)
        let onLoop = await withCheckedContinuation { (caught: CheckedContinuation<Bool, Never>) in
            let once = Mutex<CheckedContinuation<Bool, Never>?>(caught)
            let made = SignalWatch(signals: [SIGUSR2], on: testLoop) {
                once.withLock { $0.take() }?.resume(returning: SessionLoop.current === testLoop)
            }
            watch.withLock { $0 = made }
            kill(getpid(), SIGUSR2)
        }
        watch.withLock { $0 }?.cancel()
        #expect(onLoop)
    }
}

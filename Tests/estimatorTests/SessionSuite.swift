import EstimatorKit
import SessionDaemon
import Threads

/// The loop the tests' sessions run on, one for the test process as a
/// session process has one.
let testLoop = SessionLoop.start()

/// A suite of tests of the session core: a session on an in-memory radio
/// and a manual clock (Swift Testing makes a suite value per test, so each
/// test has its own).
protocol SessionSuite {
    var radio: MemoryRadio { get }
    var clock: ManualClock { get }
}

extension SessionSuite {
    /// A session on this suite's radio and clock, not started yet;
    /// `backlog` gives it the stories to estimate.
    func makeSession(channel: UInt8 = 1, name: String = "전수열", room: Room = Room(),
                     backlog: @escaping @Sendable () throws(UserError) -> BacklogProgress? = { nil }) throws -> Session {
        Session(adapter: "hci0", channel: Channel(rawValue: channel), name: try PersonName.parse(name).name,
                room: room, radio: radio, clock: clock, pid: 4242, loop: testLoop, backlog: backlog)
    }

    /// A started session that listens to the radio, with a watcher's lines.
    func watchedSession(name: String = "전수열", room: Room = Room(),
                        backlog: @escaping @Sendable () throws(UserError) -> BacklogProgress? = { nil }) async throws
        -> (Session, listening: Task<Void, Never>, Lines) {
        let session = try makeSession(name: name, room: room, backlog: backlog)
        try await session.start()
        let listening = Task { await session.listen() }
        let watched = Lines()
        await session.addWatcher { watched.append($0) }
        return (session, listening, watched)
    }

    /// The local name advertised last, as text.
    func lastAdvertised() -> String? { radio.advertised.last.map { String(decoding: $0, as: UTF8.self) } }
}

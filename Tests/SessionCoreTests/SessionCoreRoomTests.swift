import EstimatorKit
import SessionCore
import Testing

/// Finding a room (docs/PROTOCOL.md, Finding a room) as a session does it,
/// event by event: `02` while it chooses, the choice at the first tick
/// after 6 s, confirmed for 3 s before `join` answers, `03` in the room
/// found for a minute or until a round begins.
@Suite struct SessionCoreRoomTests {
    /// Draws the range's lowest number: channel 1 tentatively, and the
    /// lowest free channel.
    static let lowest: RoomChoice.Draw = { $0.lowerBound }
    /// Draws 37 for the tentative channel, the lowest free channel after.
    static let thirtySeven: RoomChoice.Draw = { $0 == 1...255 ? 37 : $0.lowerBound }

    /// Listens for the 6 s of choosing, hearing `localNames` at its start
    /// and again halfway (peers announce again and again), ticking as the
    /// executor does; the actions of the last tick.
    @discardableResult
    static func listen(_ session: inout SessionCoreHarness, hearing localNames: [String] = []) -> [SessionAction] {
        var last: [SessionAction] = []
        for step in 1...12 {
            if step == 1 || step == 6 { for localName in localNames { session.hear(localName) } }
            session.advance(by: .milliseconds(500))
            last = session.take(.tick)
        }
        return last
    }

    /// Ticks every half second for `duration`, as the executor does; the
    /// actions of the last tick.
    @discardableResult
    static func tick(_ session: inout SessionCoreHarness, for duration: Duration) -> [SessionAction] {
        var last: [SessionAction] = []
        for _ in 0..<Int(duration / .milliseconds(500)) {
            session.advance(by: .milliseconds(500))
            last = session.take(.tick)
        }
        return last
    }

    @Test func whileChoosingItSends02OnItsTentativeChannelAndChoosesAfterSixSeconds() {
        var session = SessionCoreHarness(findingRoom: Self.thirtySeven)
        #expect(session.core.isChoosingRoom)
        #expect(session.onAir == "0225FCMe", "02 on channel 37 (25) from the start")
        Self.tick(&session, for: .milliseconds(5500))
        #expect(session.core.roomChoice == nil, "still listening")
        let chosen = Self.tick(&session, for: .milliseconds(500))
        #expect(chosen.contains(.advertise), "03 goes on the air")
        #expect(session.core.roomChoice == RoomChoice(channel: Channel(rawValue: 37), reason: .free))
        #expect(session.onAir == "0325FCMe")
        #expect(session.core.status(now: session.now).settingUpUntil == session.now + .seconds(60))
        #expect(!chosen.contains(.roomChosen), "confirmed for 3 s first")
        #expect(!Self.tick(&session, for: .milliseconds(2500)).contains(.roomChosen))
        #expect(session.core.isFindingRoom)
        #expect(Self.tick(&session, for: .milliseconds(500)).contains(.roomChosen), "9 s: join answers")
        #expect(!session.core.isFindingRoom)
    }

    @Test func itSends03ForAMinuteThen01() {
        var session = SessionCoreHarness(findingRoom: Self.thirtySeven)
        Self.listen(&session)
        Self.tick(&session, for: .milliseconds(59_500))
        #expect(session.core.needsTicks(now: session.now), "the end of the minute changes the air")
        #expect(session.onAir == "0325FCMe")
        #expect(Self.tick(&session, for: .milliseconds(500)).contains(.advertise), "01 goes on the air")
        #expect(session.onAir == "0125FCMe")
        #expect(session.core.status(now: session.now).settingUpUntil == nil)
    }

    @Test func aRoundEnds03() {
        var session = SessionCoreHarness(findingRoom: Self.thirtySeven)
        Self.listen(&session)
        Self.tick(&session, for: .seconds(10))
        session.ask(.round(title: nil, timer: nil))
        #expect(session.onAir.hasPrefix("2"), "\(session.onAir)")
        #expect(session.core.status(now: session.now).settingUpUntil == nil)
    }

    @Test func itJoinsTheRoomBeingSetUpWithItsPeopleNamedInTheAnswer() {
        var session = SessionCoreHarness(findingRoom: Self.thirtySeven)
        // Bob and Ann set up room 9; Eve's room next door is busy.
        Self.listen(&session, hearing: ["0309FCBob", "0309FCAnn", "0104FCEve"])
        let choice = session.core.roomChoice
        #expect(choice?.channel == Channel(rawValue: 9))
        #expect(session.core.channel == Channel(rawValue: 9))
        #expect(session.onAir == "0309FCMe")
        #expect(session.core.view(now: session.now).peers.map(\.name) == ["Ann", "Bob"], "their room is mine")
        let answer = SessionCore.joined(choice!, name: session.core.name, observing: false, deck: .app, adapter: "hci0", pid: 42)
        #expect(answer == "joined room 9 as Me on hci0 (session pid 42), with Ann and Bob; others join with: estimator join --channel 9")
    }

    @Test func twoChoosersAtOnceLandOnTheLowerOfTheirChannels() {
        var session = SessionCoreHarness(findingRoom: Self.thirtySeven)
        Self.listen(&session, hearing: ["0290FCBob"])  // Bob chooses too, tentatively on 144
        #expect(session.core.channel == Channel(rawValue: 37))
        #expect(session.core.roomChoice?.reason == .choosingTogether)
        var bob = SessionCoreHarness(name: "Bob", findingRoom: { $0 == 1...255 ? 144 : $0.lowerBound })
        Self.listen(&bob, hearing: ["0225FCMe"])
        #expect(bob.core.channel == Channel(rawValue: 37), "both on one channel")
    }

    /// A chooser first heard late may not have heard me yet: I listen on
    /// until none has been new for 3 s (half the listening), so that both
    /// choose from the same choosers; at most 12 s.
    @Test func aChooserFirstHeardLateKeepsMeListeningUntilWeHaveHeardEachOther() {
        var session = SessionCoreHarness(findingRoom: Self.thirtySeven)
        Self.tick(&session, for: .seconds(5))
        session.hear("0290FCBob")  // first heard at 5 s
        Self.tick(&session, for: .milliseconds(2500))
        #expect(session.core.roomChoice == nil, "7.5 s: Bob may not have heard me yet")
        session.hear("0290FCBob")
        #expect(session.onAir == "0225FCMe")
        Self.tick(&session, for: .milliseconds(500))
        #expect(session.core.roomChoice != nil, "8 s: 3 s after Bob was first heard")
        #expect(session.core.roomChoice == RoomChoice(channel: Channel(rawValue: 37), reason: .choosingTogether))
    }

    @Test func newChoosersHeardOneAfterTheOtherHoldTheChoiceTwelveSecondsAtMost() {
        var session = SessionCoreHarness(findingRoom: Self.thirtySeven)
        var chosenAt: Int?
        for step in 1...30 where chosenAt == nil {
            session.hear("02\(Channel(rawValue: UInt8(100 + step)).hex)FCP\(step)")  // someone new each half second
            session.advance(by: .milliseconds(500))
            session.take(.tick)
            if session.core.roomChoice != nil { chosenAt = step }
        }
        #expect(chosenAt == 24, "12 s")
    }

    /// Dee heard a neighbour choosing on 5 as loudly as a teammate, by
    /// luck, and chose 5; her teammates chose 37 together. Once both send
    /// `03` there she joins them, and `join`'s answer names their room.
    @Test func oneWhoChoseApartJoinsALargerRoomBeforeJoinAnswers() {
        var session = SessionCoreHarness(name: "Dee", findingRoom: Self.thirtySeven)
        Self.listen(&session, hearing: ["0205FCNed"])
        #expect(session.core.roomChoice == RoomChoice(channel: Channel(rawValue: 5), reason: .choosingTogether))
        #expect(session.onAir == "0305FCDee")
        session.hear("0325FCAnn")
        #expect(!Self.tick(&session, for: .seconds(1)).contains(.roomChosen))
        #expect(session.core.channel == Channel(rawValue: 5), "one in 37 is as many as mine")
        session.hear("0325FCBob")
        let moved = Self.tick(&session, for: .milliseconds(500))
        #expect(moved.contains(.advertise))
        #expect(!moved.contains(.roomChosen), "still confirming")
        #expect(session.onAir == "0325FCDee")
        #expect(session.core.status(now: session.now).settingUpUntil == session.now + .seconds(60), "set up from now")
        #expect(Self.tick(&session, for: .milliseconds(1500)).contains(.roomChosen), "9 s: join answers")
        let people = [PeerID(channel: Channel(rawValue: 37), name: "Ann"), PeerID(channel: Channel(rawValue: 37), name: "Bob")]
        #expect(session.core.roomChoice == RoomChoice(channel: Channel(rawValue: 37), reason: .settingUp(with: people)))
        #expect(session.core.view(now: session.now).peers.map(\.name) == ["Ann", "Bob"])
    }

    /// Ned, next door, is found by a lucky run of readings and stays in the
    /// table for the lose time; by my choice his mean has fallen back below
    /// the floor's found level, so his tentative channel draws nobody.
    @Test func aNeighbourFoundByALuckyRunDrawsNobodyOnceHisMeanFallsBack() {
        var session = SessionCoreHarness(range: .room, findingRoom: Self.thirtySeven)
        for step in 0..<12 {
            session.hear("0205FCNed", rssi: step < 3 ? -86 : -96)
            session.advance(by: .milliseconds(500))
            session.take(.tick)
        }
        #expect(session.core.room.table[PeerID(channel: Channel(rawValue: 5), name: "Ned")] != nil, "in the table")
        #expect(session.core.roomChoice == RoomChoice(channel: Channel(rawValue: 37), reason: .free), "5 is heard: 37 is free")
    }

    @Test func aJoinWhileConfirmingAnswersAtOnce() {
        var session = SessionCoreHarness(findingRoom: Self.thirtySeven)
        Self.listen(&session)
        #expect(session.core.isFindingRoom)
        let (_, actions) = session.ask(.join(channel: nil, name: "Ann"))
        #expect(actions.contains(.roomChosen))
        #expect(!session.core.isFindingRoom)
        #expect(session.core.roomChoice?.channel == Channel(rawValue: 37), "the choice stands")
    }

    @Test func aTentativeChannelHeardInIsLeftForAFreeOne() {
        var session = SessionCoreHarness(findingRoom: Self.lowest)
        #expect(session.core.channel == Channel(rawValue: 1))
        Self.listen(&session, hearing: ["2101FCAnn", "0102FCCid"])  // a round on 1, people on 2
        #expect(session.core.channel == Channel(rawValue: 3), "the lowest channel nobody was heard on, as drawn")
        #expect(session.core.view(now: session.now).peers.isEmpty)
    }

    @Test func myOwnEchoIsNobodyOnMyTentativeChannel() {
        var session = SessionCoreHarness(findingRoom: Self.thirtySeven)
        Self.listen(&session, hearing: ["0225FCMe"])
        #expect(session.core.channel == Channel(rawValue: 37))
    }

    @Test func aTypedChannelSkipsItAll() {
        var session = SessionCoreHarness()
        #expect(!session.core.isChoosingRoom)
        #expect(session.onAir == "0101FCMe")
        #expect(!Self.tick(&session, for: .seconds(10)).contains(.roomChosen))
        #expect(session.core.roomChoice == nil)
        #expect(session.core.status(now: session.now).settingUpUntil == nil)
    }

    @Test func aJoinWithAChannelWhileChoosingEndsTheChoosing() {
        var session = SessionCoreHarness(findingRoom: Self.thirtySeven)
        let (reply, actions) = session.ask(.join(channel: 5, name: nil))
        #expect(actions.contains(.roomChosen), "the answer that waited can go")
        #expect(reply?.message.hasPrefix("joined channel 5 as Me") == true)
        #expect(!session.core.isChoosingRoom)
        #expect(session.core.roomChoice == nil)
        #expect(session.onAir == "0105FCMe", "a typed channel is no room being set up")
    }
}

import EstimatorKit
import Testing

/// The rule that finds a room (`RoomChoice`, docs/PROTOCOL.md, Finding a
/// room), on tables of what a session heard while it listened.
@Suite struct RoomChoiceTests {
    static let start = Timestamp(secondsSince1970: 1_700_000_000)
    static let thirtySeven = Channel(rawValue: 37)

    /// The peers a table keeps after hearing `heard` (local name and
    /// signal) at the start.
    static func peers(_ heard: [(String, Int?)]) throws -> [Peer] {
        var table = PeerTable()
        for (localName, rssi) in heard { _ = table.observe(PeerSighting(try Packet(decoding: localName), rssi: rssi, time: start)) }
        return table.peers
    }

    static func choose(_ heard: [(String, Int?)], faint: Set<Channel> = [], tentative: Channel = thirtySeven,
                       draw: @escaping RoomChoice.Draw = { $0.lowerBound }) throws -> RoomChoice {
        let peers = try peers(heard)
        return RoomChoice(tentative: tentative, peers: peers, heard: Set(peers.map(\.channel)).union(faint), draw: draw)
    }

    @Test func nothingHeardKeepsTheTentativeChannel() throws {
        #expect(try Self.choose([]) == RoomChoice(channel: Self.thirtySeven, reason: .free))
    }

    @Test func aTentativeChannelHeardInEvenFaintlyIsLeftForAnotherNobodyUses() throws {
        let draws = try Self.choose([("0125FCAnn", -60)], faint: [Channel(rawValue: 1)], draw: { $0.lowerBound })
        #expect(draws == RoomChoice(channel: Channel(rawValue: 2), reason: .free), "1 heard faintly, 37 taken")
        let last = try Self.choose([], faint: [Self.thirtySeven], draw: { $0.upperBound })
        #expect(last.channel == Channel(rawValue: 255))
    }

    @Test func aBusyChannelIsNeverJoinedNorTaken() throws {
        // A round on 9, people settled on 10, and 03 heard beside each: busy all the same.
        let choice = try Self.choose([("2309FCAnn", -50), ("0309FCBob", -50), ("010AFCCid", -50), ("030AFCDan", -50)])
        #expect(choice == RoomChoice(channel: Self.thirtySeven, reason: .free))
        let taken = try Self.choose([("2325FCAnn", -50)], tentative: Self.thirtySeven)
        #expect(taken.channel == Channel(rawValue: 1), "my tentative channel has a round on: another one")
    }

    @Test func aRoomBeingSetUpIsJoinedWithItsPeople() throws {
        let choice = try Self.choose([("0309FCBob", -70), ("0309FCAnn", -65)])
        let people = [PeerID(channel: Channel(rawValue: 9), name: "Ann"), PeerID(channel: Channel(rawValue: 9), name: "Bob")]
        #expect(choice == RoomChoice(channel: Channel(rawValue: 9), reason: .settingUp(with: people)))
    }

    @Test func theRoomWithMostPeopleWins() throws {
        let choice = try Self.choose([("0309FCAnn", -50), ("0340FCBob", -80), ("0340FCCid", -80)])
        #expect(choice.channel == Channel(rawValue: 0x40))
    }

    @Test func aTieGoesToTheStrongerSignalThenToTheLowerNumber() throws {
        let strong = try Self.choose([("0340FCAnn", -55), ("0309FCBob", -85)])
        #expect(strong.channel == Channel(rawValue: 0x40), "read at -55 beats -85")
        let read = try Self.choose([("0340FCAnn", -90), ("0309FCBob", nil)])
        #expect(read.channel == Channel(rawValue: 0x40), "a reading beats none")
        let even = try Self.choose([("0340FCAnn", -60), ("0309FCBob", -60)])
        #expect(even.channel == Channel(rawValue: 9), "the lower number")
        let unread = try Self.choose([("0340FCAnn", nil), ("0309FCBob", nil)])
        #expect(unread.channel == Channel(rawValue: 9), "btvirt reads no signal: the lower number")
    }

    @Test func simultaneousChoosersConvergeOnTheLowestChannel() throws {
        // Ann on 37, Bob on 80, Cid on 20: each hears the two others choosing.
        let ann = try Self.choose([("0250FCBob", -60), ("0214FCCid", -60)], tentative: Self.thirtySeven)
        let bob = try Self.choose([("0225FCAnn", -60), ("0214FCCid", -60)], tentative: Channel(rawValue: 0x50))
        let cid = try Self.choose([("0225FCAnn", -60), ("0250FCBob", -60)], tentative: Channel(rawValue: 0x14))
        #expect([ann, bob, cid].map(\.channel) == Array(repeating: Channel(rawValue: 0x14), count: 3))
        #expect(ann.reason == .choosingTogether)
    }

    @Test func aRoomBeingSetUpBeatsOthersChoosing() throws {
        let choice = try Self.choose([("0201FCAnn", -60), ("0350FCBob", -80)])
        #expect(choice.channel == Channel(rawValue: 0x50))
    }

    /// Confirming: Dee chose 0x46 alone, her teammates 0x0A together; Ann,
    /// the neighbour whose tentative channel 0x46 was, is still heard
    /// choosing there, and is in nobody's room.
    @Test func aRoomBeingSetUpWithMorePeopleThanMineDrawsMe() throws {
        let alone = Channel(rawValue: 0x46)
        let teammates = try Self.peers([("030AFCEve", -72), ("030AFCFay", -79), ("0246FCAnn", -86)])
        let people = [PeerID(channel: Channel(rawValue: 0x0A), name: "Eve"), PeerID(channel: Channel(rawValue: 0x0A), name: "Fay")]
        #expect(RoomChoice.larger(than: alone, peers: teammates)
            == RoomChoice(channel: Channel(rawValue: 0x0A), reason: .settingUp(with: people)))
        let oneFound = try Self.peers([("030AFCEve", -72)])
        #expect(RoomChoice.larger(than: alone, peers: oneFound) == nil, "as many as mine, me counted: I stay")
    }

    @Test func myRoomsPeopleCountAndABusyRoomNeverDraws() throws {
        let mine = Channel(rawValue: 0x0A)
        let heard = try Self.peers([("030AFCBob", -72), ("0346FCDee", -86), ("0346FCEve", -90)])
        #expect(RoomChoice.larger(than: mine, peers: heard) == nil, "Bob and I are as many as next door")
        let busy = try Self.peers([("0346FCDee", -70), ("0346FCEve", -70), ("2346FCFay", -70)])
        #expect(RoomChoice.larger(than: mine, peers: busy) == nil, "a round on 0x46")
        // Bob set up here with me; two others still choose on 0x0A. Counted
        // with them, my channel is the largest room being set up: it is no
        // room to move to.
        let myOwn = try Self.peers([("030AFCBob", -72), ("020AFCNed", -72), ("020AFCOla", -72)])
        #expect(RoomChoice.larger(than: mine, peers: myOwn) == nil, "my own room draws me nowhere")
    }

    @Test func channelZeroIsNeverChosen() throws {
        let setUp = try Self.choose([("0300FCAnn", -50), ("0200FCBob", -50)])
        #expect(setUp == RoomChoice(channel: Self.thirtySeven, reason: .free), "the app's channel is no room to find")
        let tentative = try Self.choose([], tentative: .default)
        #expect(tentative.channel == Channel(rawValue: 1))
        #expect(RoomChoice.tentative { $0.lowerBound } == Channel(rawValue: 1))
        #expect(RoomChoice.tentative { $0.upperBound } == Channel(rawValue: 255))
    }

    @Test func aStalePeerCountsForNothing() throws {
        var table = PeerTable()
        _ = table.observe(PeerSighting(try Packet(decoding: "0309FCAnn"), rssi: -50, time: Self.start))
        _ = table.tick(now: Self.start + .seconds(7))
        let choice = RoomChoice(tentative: Self.thirtySeven, peers: table.peers, heard: [Channel(rawValue: 9)], draw: { $0.lowerBound })
        #expect(choice == RoomChoice(channel: Self.thirtySeven, reason: .free), "Ann moved on: 9 is not joined")
    }

    @Test func thePacketsOfFindingARoomGoBothWays() throws {
        let choosing = try Packet(decoding: "0225FCAnn")
        #expect(choosing.version == .choosing)
        #expect(choosing.finding == .choosing)
        #expect(choosing.round == nil)
        #expect(choosing.localName == "0225FCAnn")
        let found = try Packet(decoding: "0325FCAnn")
        #expect(found.version == .found)
        #expect(found.finding == .found)
        #expect(found.channel == Self.thirtySeven)
        #expect(try Self.peers([("0325FCAnn", nil)]).first?.packet.localName == "0325FCAnn", "the table keeps it")
        #expect(throws: PacketDecodeError.unknownVersion(Array("04".utf8))) { try Packet(decoding: "0401FEAnn") }
    }
}

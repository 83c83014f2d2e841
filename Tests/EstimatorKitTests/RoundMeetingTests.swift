import EstimatorKit
import PropertyBased
import Testing

/// Stories a room may hold for one round: two backlogs' and typed ones,
/// one title cut on the air (`ABC-1 Login with pass`, as a receiver of
/// the first 75 bytes decodes a longer one), and one with the title of
/// another but no key.
private let stories: [Story?] = [
    nil, Story(key: "ABC-1", summary: "Login with passkeys"), Story(line: "ABC-1 Login with pass"),
    Story(key: "ABC-0", summary: "Sign up"), Story(key: nil, summary: "ABC-0 Sign up"), Story(line: "ZZZ-9"),
]

/// Any meeting made of those stories, a few deadlines and cards, its change
/// numbered within 7 of the others' across the wrap (14 … 4): as far
/// apart as serial arithmetic orders, as a round's changes are once heard.
private let anyMeeting = zip(
    Gen.int(in: 0...stories.count - 1), Gen.int(in: 0...2), Gen.uint8(in: 14...20), Gen.int(in: 0...2), Gen.int(in: 0...3)
).map { story, source, change, deadline, agreed in
    let sources: [RoundMeeting.Source] = [.none, .backlog, .typed]
    let deadlines: [Timestamp?] = [nil, Timestamp(secondsSince1970: 1_700_000_000), Timestamp(secondsSince1970: 1_700_000_090)]
    let cards: [Card?] = [nil, .three, .five, .eight]
    return RoundMeeting(story: stories[story], source: sources[source], change: change, deadline: deadlines[deadline],
                        agreed: cards[agreed])
}

/// The merge every laptop applies to the meetings it hears
/// (`RoundMeeting.merging`): the same meetings, in any order, any number
/// of times, make the same meeting.
@Suite struct RoundMeetingTests {
    @Test func theMergeIsCommutativeAssociativeAndIdempotent() async {
        await propertyCheck(count: 3000, input: anyMeeting, anyMeeting, anyMeeting) { a, b, c in
            #expect(a.merging(b) == b.merging(a))
            #expect(a.merging(b).merging(c) == a.merging(b.merging(c)))
            #expect(a.merging(a) == a)
        }
    }

    @Test func aWholeTitleBeatsItsCutAndOtherwiseTheFirstInBytes() {
        let whole = RoundMeeting().choosing(Story(key: "ABC-1", summary: "Login with passkeys"), from: .backlog)
        let cut = RoundMeeting().choosing(Story(line: "ABC-1 Login with pass"), from: .backlog)
        #expect(cut.merging(whole) == whole, "the relay's whole title replaces the air's cut one")
        #expect(whole.merging(cut) == whole)
        let other = RoundMeeting().choosing(Story(key: "ABC-0", summary: "Sign up"), from: .backlog)
        #expect(whole.merging(other) == other, "two backlogs: ABC-0 sorts first")
        let typed = RoundMeeting().choosing(Story(line: "ZZZ-9"), from: .typed)
        #expect(other.merging(typed).story?.key == "ZZZ-9", "a typed story beats a backlog's")
    }

    @Test func aLaterChangeWinsAndOneOfTheSameNumberIsOrderedByItsBytes() {
        let timed = RoundMeeting().timing(Timestamp(secondsSince1970: 1_700_000_090))
        let settled = timed.settling(.five)
        #expect(timed.merging(settled) == settled, "a settle after the timer replaces it")
        #expect(settled.deadline == nil)
        let elsewhere = timed.settling(.eight)
        #expect(settled.merging(elsewhere).agreed == .five, "two settles at once: the smaller card, on every laptop")
        let wrapped = RoundMeeting(story: nil, source: .none, change: 15, deadline: nil, agreed: .three).settling(.eight)
        #expect(wrapped.change == 0)
        #expect(wrapped.merging(RoundMeeting(story: nil, source: .none, change: 15, deadline: nil, agreed: .three)).agreed == .eight,
                "changes are numbered modulo 16, in serial arithmetic")
    }
}

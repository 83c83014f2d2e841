import EstimatorKit
import Testing

@Suite struct RevealBellTests {
    private typealias State = (channel: UInt8, round: Int?, decided: Bool, shown: Bool)

    /// Which of `states`, fed in order to one bell, ring it.
    private func rings(_ states: [State]) -> [Bool] {
        var bell = RevealBell()
        return states.map { state in
            bell.rings(channel: Channel(rawValue: state.channel), round: state.round.map(RoundNumber.init(wrapping:)),
                       decided: state.decided, shown: state.shown)
        }
    }

    @Test func aRoundSeenHiddenRingsOnceWhenItsCardsShow() {
        #expect(rings([
            (1, 3, false, false),
            (1, 3, true, false),  // revealed, a last vote still on its way
            (1, 3, true, true),   // shown: ring
            (1, 3, true, true),   // a redraw, a re-vote
            (1, 4, false, false),
            (1, 4, true, true),   // the next round rings again
        ]) == [false, false, true, false, false, true])
    }

    @Test func aRoundRevealedBeforeTheTableLookedNeverRings() {
        #expect(rings([(1, 3, true, false), (1, 3, true, true)]) == [false, false])
        // A round whose hidden part was missed does not ring for the one seen before it.
        #expect(rings([(1, 4, false, false), (1, 5, true, true)]) == [false, false])
    }

    @Test func aRoomWithoutRoundsAndEachChannelRingByThemselves() {
        #expect(rings([
            (1, nil, false, false),
            (2, 3, true, true),     // channel 2 was never seen hidden
            (1, nil, true, true),   // the app's users alone reveal too
        ]) == [false, false, true])
    }
}

import ArgumentParser
import EstimatorKit
import SessionDaemon

/// `estimator packet encode`: the local name estimator would broadcast.
struct PacketEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Print the local name that announces a card.",
        discussion: """
            The name is checked, normalised and shortened to 12 bytes exactly as \
            estimator join does it; what changed is said on standard error.

            Examples:
              $ estimator packet encode --channel 1 --card 8 --name Ann
              010108Ann

              $ estimator packet encode --channel 1 --card 21 --name Ann    # any integer to 126
              010115Ann

              $ estimator packet encode --channel 1 --card M --name Ann     # a T-shirt size
              010182Ann

              $ estimator packet encode --card coffee --name Ann --hex
              303130304645416E6E

              $ estimator packet encode --card 8 --name Ann --hex | estimator packet decode --hex
            """)

    @Option(parsing: .unconditional, help: "The channel, 0 to 255; 0 is the app's default.")
    var channel: Channel = .default

    @Option(help: "The card: \(Card.typedForms).")
    var card: Card

    @Option(parsing: .unconditional, help: "Your name; a longer one is cut to the 12 bytes of UTF-8 sent.")
    var name: TypedText

    @Option(help: "The round, 0 to 15 (version 2R); without it, version 01 as the app sends.")
    var round: RoundNumber?

    @Flag(help: "The round's cards are revealed (version 3R); needs --round.")
    var revealed = false

    @Flag(help: "Write the local name as hex bytes (as btmon shows them) instead of as text.")
    var hex = false

    func validate() throws {
        if revealed, round == nil { throw ValidationError("--revealed goes with --round N: only a round is revealed.") }
    }

    func run() throws {
        let (person, warnings) = try PersonName.parseTyped(name.text)
        for warning in warnings { StandardError.write("Warning: \(warning)") }
        let version = round.map { revealed ? Packet.Version.revealed($0) : .round($0) } ?? .v01
        let packet = Packet(version: version, channel: channel, card: card, name: person.text)
        print(hex ? Hex.text(Array(packet.localName.utf8)) : packet.localName)
    }
}

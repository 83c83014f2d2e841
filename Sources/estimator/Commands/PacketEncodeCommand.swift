import ArgumentParser
import EstimatorKit

/// `estimator packet encode`: the local name estimator would broadcast.
struct PacketEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Print the local name that announces a card.",
        discussion: """
            The name is normalised and shortened to 12 bytes exactly as \
            estimator join does it; what changed is said on standard error.

            Examples:
              estimator packet encode --channel 1 --card 8 --name Ann
              010108Ann
              estimator packet encode --card coffee --name Ann --hex
              303130304645416E6E
            """)

    @Option(parsing: .unconditional, help: "The channel, 0 to 255 (default: 0, the app's default).", transform: Channel.init(parsing:))
    var channel: Channel = .default

    @Option(help: "The card: \(Card.typedForms).", transform: Card.init(parsing:))
    var card: Card

    @Option(help: "Your name; at most 12 bytes of UTF-8 are sent.")
    var name: String

    @Option(help: "The round, 0 to 15 (version 2R); without it, version 01 as the app sends.")
    var round: Int?

    @Flag(help: "Print the local name's bytes as hex instead of as text.")
    var hex = false

    func run() throws {
        let (person, warnings): (PersonName, [PersonNameWarning])
        do {
            (person, warnings) = try PersonName.parse(name)
        } catch {
            throw UserError(.usage, error.description)
        }
        for warning in warnings { StandardError.write("Warning: \(warning)") }
        if let round, !(0...15).contains(round) {
            throw UserError(.usage, "'\(round)' is not a round; rounds on the air are 0 to 15.")
        }
        let packet = Packet(channel: channel, card: card, name: person, round: round.map(RoundNumber.init(wrapping:)))
        print(hex ? HexText.format(Array(packet.localName.utf8)) : packet.localName)
    }
}

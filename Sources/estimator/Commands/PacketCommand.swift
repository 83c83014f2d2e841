import ArgumentParser

/// `estimator packet`: the over-the-air codec, for people and scripts.
struct PacketCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "packet",
        abstract: "Encode or decode the packet estimator and the Estimator app broadcast.",
        discussion: """
            Each person's advertisement carries one packet as its local name: \
            2 characters of protocol version (01), the channel and the card as two \
            hex digits each, then the name in UTF-8, at most 18 bytes in all. \
            For example 0101FEAnn is version 01, channel 1, coffee, name Ann.
            """,
        subcommands: [PacketEncodeCommand.self, PacketDecodeCommand.self, UnknownCommand<PacketCommand>.self],
        defaultSubcommand: UnknownCommand<PacketCommand>.self)
}

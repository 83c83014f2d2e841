import ArgumentParser
import EstimatorKit
import Glibc

/// `estimator packet decode`: what a received local name says.
struct PacketDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Show the fields of a received local name.",
        discussion: """
            Versions 00 and 01 (the app's, no round), 02 and 03 (a session choosing \
            its room, or in a room it found lately; no round), 20 to 2F (round 0 to 15), 30 to \
            3F (the same rounds, revealed), 40 to 4F (held) and 50 to 5F (revealed on \
            demand) are understood, the app's single-digit 13 (0100DAnn), hex digits in \
            either case, names longer than 12 bytes and invalid UTF-8 (shown as \
            U+FFFD). The name is shown with control characters, escape sequences and \
            bidi overrides removed. Input that is not a packet exits with status 65.

            Examples:
              $ estimator packet decode 0001FEAnn
              version  00
              channel  1 (01)
              round    none
              card     ☕ (FE)
              name     Ann

              $ estimator packet encode --card 8 --name Jo | estimator packet decode

              $ estimator packet decode --hex 3031303130384A6F --json
              {"version":"01","channel":1,"round":null,"revealed":false,"onDemand":false,"holding":false,"card":"8","cardRaw":"08","name":"Jo"}

            JSON keys, in this order: version (string), channel (number), round \
            (number, or null for versions 00 to 03), revealed (true for 30 to 3F and \
            50 to 5F), onDemand (true for 50 to 5F), holding (true for 40 to 4F), card \
            (an integer "0" … "126", "0.5", "XS" "S" "M" "L" "XL" "XXL", "?" "coffee" \
            "waiting" "none" "observing" "sealed", or null when unknown), cardRaw (the \
            card byte as two hex digits), name (string, sanitised like the table).
            """)

    @Argument(help: "The local name; without it, or with -, the first line of standard input.")
    var localName: String?

    @Flag(help: "Read the local name as hex bytes (as btmon shows them; spaces and colons allowed) instead of as text.")
    var hex = false

    @Flag(help: "Print exactly one JSON object instead of a table.")
    var json = false

    func run() throws {
        if localName == nil, isatty(0) == 1 {
            throw UserError(.usage, "Give the local name as an argument, or pipe it in.")
        }
        let input = localName.flatMap { $0 == "-" ? nil : Array($0.utf8) } ?? StandardInput.firstLine()
        let bytes = hex ? try HexText.parse(String(decoding: input, as: UTF8.self)) : input
        let packet: Packet
        do {
            packet = try Packet(decoding: bytes)
        } catch {
            throw UserError(.data, error.description)
        }
        print(json ? Self.json(packet) : Self.table(packet))
    }

    static func json(_ packet: Packet) -> String {
        let object: JSONValue = [
            "version": .string(packet.version.field),
            "channel": .int(Int(packet.channel.rawValue)),
            "round": packet.round.map { .int(Int($0.value)) } ?? .null,
            "revealed": .bool(packet.isRevealed),
            "onDemand": .bool(packet.isRevealedOnDemand),
            "holding": .bool(packet.holdsTheReveal),
            "card": .string(packet.card.name),
            "cardRaw": .string(packet.card.hex),
            "name": .string(TerminalText.sanitize(packet.name)),
        ]
        return object.text
    }

    static func table(_ packet: Packet) -> String {
        let name = TerminalText.sanitize(packet.name)
        var notes: [String] = []
        if name != packet.name { notes.append("characters a terminal would act on removed") }
        if packet.isNameCut { notes.append("cut: an iPhone sends the app's local name cut to 8 bytes") }
        if packet.name.utf8.count > PersonName.maxUTF8Count {
            notes.append("\(packet.name.utf8.count) bytes, longer than the \(PersonName.maxUTF8Count) estimator sends")
        }
        // Observing by its name: `obs` is the table's mark.
        let card = !packet.card.isKnown ? "unknown" : packet.card == .observing ? "observing" : packet.card.description
        return """
            version  \(packet.version.field)
            channel  \(packet.channel) (\(packet.channel.hex))
            round    \(packet.round.map { "\($0)\(Self.ballot(packet))" } ?? "none")
            card     \(card) (\(packet.card.hex))
            name     \(name)\(packet.isNameCut ? "…" : "")\(notes.isEmpty ? "" : "  (\(notes.joined(separator: "; ")))")
            """
    }

    private static func ballot(_ packet: Packet) -> String {
        packet.isRevealedOnDemand ? ", revealed on demand" : packet.isRevealed ? ", revealed" : packet.holdsTheReveal ? ", held" : ""
    }
}

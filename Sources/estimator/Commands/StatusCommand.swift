import ArgumentParser
import EstimatorKit
import SessionDaemon
import Watch

/// `estimator status`: what the session is doing.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the session is doing.",
        discussion: """
            Without a session it says so and exits 69; with --json it prints \
            {"running":false} and exits 0, so a prompt or script can ask every time.

            Examples:
              $ estimator status
              session pid 4242 on hci0: channel 1 as 전수열, card 8
              round 3 (ABC-1); 3 people heard in channel 1; radio: advertising and scanning

              $ estimator status --json | jq -r .card
              8

            JSON keys, in this order: running (true or false; when false, the \
            only key), pid (number), adapter (string), channel (number), name \
            (string, sanitised), card (as in `packet decode --json`: "0" … "126", \
            "0.5", "XS" … "XXL", "?", "coffee", "waiting" (no card yet), or null when \
            unknown), cardRaw \
            (two hex digits), peers (number of people heard in the channel), radio \
            (string), round (0 to 15, or null when the room has none), title \
            (string or null: the round's story, as the whole room shares it), \
            nameTaken (true when someone else in the channel has your name and is \
            hidden behind your row), relay (string: the relay's URL and its \
            broker connection, as "mqtts://host:8883/room connected"; null \
            without a relay), relayDownSince (when the relay lost the broker, \
            in UTC as "2026-11-29T14:02:07.120Z": teammates reached through it \
            hear nothing until it is back; null while it is connected and \
            without a relay), role ("voter" or "observer"), revealed (true once \
            the round's cards are revealed), deck (as `join --deck` takes it: \
            "app", "fibonacci", "powers", "tshirt" or integers as "1,2,4,8"), \
            settingUpUntil (until when the room `join` found is being set up, in \
            UTC: teammates who join without a channel meanwhile land in it; null \
            otherwise), range (how far the room reaches, as `join --range` takes \
            it: "near", "room" or "hall"), leaving (true while the session leaves: \
            it broadcasts its leave and ends; `estimator leave` returns once it has), \
            unsavedSince (when the first change the session could not save to the \
            history was made, in UTC; null while everything is saved; the text \
            says "history: not saved since 14:02" in local time), unsaved (why, \
            with the fix; null while saved).
            """)

    @Option(help: "The adapter whose session to show, by name or address (default: the only running session).")
    var adapter: AdapterChoice?

    @Flag(help: "Print exactly one JSON object instead of text.")
    var json = false

    func run() async throws {
        let client: ControlClient
        if json {
            guard let (_, found) = try await SessionLocator.find(adapter: adapter) else {
                return print(JSONValue.object([JSONMember("running", .bool(false))]).text)
            }
            client = found
        } else {
            client = try await SessionLocator.connect(adapter: adapter).client
        }
        let reply = try client.call(.status)
        guard reply.exitCode == 0, let status = reply.status else { return try ControlReplyPrinter.print(reply) }
        print(json ? Self.json(status) : Self.text(status))
    }

    static func text(_ status: ControlStatus) -> String {
        let name = TerminalText.sanitize(status.name)
        if status.leaving {
            return "session pid \(status.pid) on \(TerminalText.sanitize(status.adapter)): leaving channel \(status.channel) as \(name); "
                + "it ends in a moment"
        }
        let people = status.peers == 1 ? "1 person" : "\(status.peers) people"
        let card = (status.observing ? "observing" : status.card == .waiting ? "no card yet" : "card \(status.card)")
            + (status.deck == .app ? "" : " (\(status.deck.phrase))")
        let round = status.round.map {
            "round \($0)" + (status.title.map { " (\(TerminalText.sanitize($0)))" } ?? "") + (status.revealed ? ", revealed" : "") + "; "
        } ?? ""
        let taken = status.nameTaken ? "\n" + TerminalText.sanitize(WatchViewer.nameTakenNotice(status.name)) : ""
        return """
            session pid \(status.pid) on \(TerminalText.sanitize(status.adapter)): channel \(status.channel) as \(name), \(card)
            \(round)\(people) heard in channel \(status.channel) (range \(status.range)); radio: \(TerminalText.sanitize(status.radio))
            """ + taken + (status.relay.map { "\nrelay: " + TerminalText.sanitize($0) } ?? "")
            + (status.relayDownSince.map { "; down since \(LocalTime.clock($0)), so teammates reached through it hear nothing" } ?? "")
            + (status.unsavedSince.map {
                "\nhistory: not saved since \(LocalTime.clock($0))" + (status.unsavedReason.map { ": " + TerminalText.sanitize($0) } ?? "")
            } ?? "")
            + (status.settingUpUntil.map {
                "\nroom \(status.channel) being set up: until \(LocalTime.clock($0)) teammates who type `estimator join` land in it; "
                    + "after that, `estimator join --channel \(status.channel)`"
            } ?? "")
    }

    static func json(_ status: ControlStatus) -> String {
        JSONValue.object([
            JSONMember("running", .bool(true)),
            JSONMember("pid", .int(Int(status.pid))),
            JSONMember("adapter", .string(TerminalText.sanitize(status.adapter))),
            JSONMember("channel", .int(Int(status.channel))),
            JSONMember("name", .string(TerminalText.sanitize(status.name))),
            JSONMember("card", .string(status.card.name)),
            JSONMember("cardRaw", .string(status.card.hex)),
            JSONMember("peers", .int(status.peers)),
            JSONMember("radio", .string(TerminalText.sanitize(status.radio))),
            JSONMember("round", status.round.map { .int(Int($0.value)) } ?? .null),
            JSONMember("title", .string(status.title.map(TerminalText.sanitize))),
            JSONMember("nameTaken", .bool(status.nameTaken)),
            JSONMember("relay", status.relay.map { .string(TerminalText.sanitize($0)) } ?? .null),
            JSONMember("relayDownSince", status.relayDownSince.map { .string(RFC3339.string($0)) } ?? .null),
            JSONMember("role", .string(status.observing ? "observer" : "voter")),
            JSONMember("revealed", .bool(status.revealed)),
            JSONMember("deck", .string(status.deck.description)),
            JSONMember("settingUpUntil", status.settingUpUntil.map { .string(RFC3339.string($0)) } ?? .null),
            JSONMember("range", .string(status.range.rawValue)),
            JSONMember("leaving", .bool(status.leaving)),
            JSONMember("unsavedSince", status.unsavedSince.map { .string(RFC3339.string($0)) } ?? .null),
            JSONMember("unsaved", status.unsavedReason.map { .string(TerminalText.sanitize($0)) } ?? .null),
        ]).text
    }
}

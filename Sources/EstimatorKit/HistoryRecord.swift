/// One revealed round as the history keeps it: a line of the history file
/// (JSON) and a row of `history --csv --all`.
///
/// The JSON line has these keys, in this order: `id`, `time` (RFC 3339, UTC,
/// milliseconds), `channel`, `round` (0–15 or null), `title` (or null),
/// `votes` (`[{"name","card","cardRaw"}]`, `card` as in `packet decode
/// --json`: null for an unknown byte), `median`, `mean` (numbers or null),
/// `nearest` (the card nearest the mean, or null), `consensus`, `questions`,
/// `coffees`, `story` (`{"key","summary"}`, the key null when there is
/// none; null for a round without a story) and `agreed` (the agreed
/// estimate's card, or null), then `joined` (0–15) only on the first round a
/// session recorded after joining a meeting under way. Lines written before
/// stories and agreed estimates lack `story` and `agreed`: they read as null.
public struct HistoryRecord: Equatable, Sendable {
    /// One person's card in the round.
    public struct Vote: Equatable, Sendable {
        /// The name as received (it may hold anything: sanitise it for a terminal).
        public var name: String
        public var card: Card

        public init(name: String, card: Card) {
            self.name = name
            self.card = card
        }
    }

    /// Unique per revealed round; a record saved with an existing id
    /// replaces that one (a re-vote after the reveal).
    public var id: String
    /// When the round was revealed (kept to the millisecond in the file).
    public var time: Timestamp
    public var channel: Channel
    /// The round on the air, 0–15; `nil` when the room had none.
    public var round: Int?
    /// The story's title, as the room's meeting said (`RoundMeeting`).
    public var title: String?
    /// Everyone counted, in name order.
    public var votes: [Vote]
    public var median: Double?
    public var mean: Double?
    /// The card nearest the mean.
    public var nearest: Card?
    public var consensus: Bool
    /// How many picked `?`.
    public var questions: Int
    /// How many picked coffee.
    public var coffees: Int
    /// The story estimated, from the backlog or the title; `nil` when the
    /// round had neither (see `subject`).
    public var story: Story?
    /// The estimate the team agreed on (`Agreement`), when it did.
    public var agreed: Card?
    /// The round this laptop's session joined as it ran, on the first round
    /// it recorded after joining a meeting under way: the rounds before it
    /// were not heard here, so the history from then on is not the room's
    /// whole meeting.
    public var joined: Int?

    /// A record; `votes` are put in name order.
    public init(
        id: String, time: Timestamp, channel: Channel, round: Int?, title: String?, votes: [Vote],
        median: Double?, mean: Double?, nearest: Card?, consensus: Bool, questions: Int, coffees: Int,
        story: Story? = nil, agreed: Card? = nil, joined: Int? = nil
    ) {
        self.id = id
        self.time = time
        self.channel = channel
        self.round = round
        self.title = title
        self.votes = votes.sorted { $0.name < $1.name }
        self.median = median
        self.mean = mean
        self.nearest = nearest
        self.consensus = consensus
        self.questions = questions
        self.coffees = coffees
        self.story = story
        self.agreed = agreed
        self.joined = joined
    }

    /// The story the round estimated: its own, else the one its title
    /// reads as (`Story.init(line:)`), as in lines kept before stories were.
    public var subject: Story? { story ?? title.map(Story.init(line:)) }

    /// An id for the round `round` of `channel` revealed at `time`, such as
    /// `1/3/2026-11-22T03:51:46.722Z` (`-` for no round).
    public static func id(channel: Channel, round: Int?, revealedAt time: Timestamp) -> String {
        "\(channel)/\(round.map(String.init) ?? "-")/\(RFC3339.string(time))"
    }
}

// MARK: - JSON line

extension HistoryRecord {
    /// The record as one line of JSON, without the newline.
    public var jsonLine: String {
        let object: JSONValue = [
            "id": .string(id),
            "time": .string(RFC3339.string(time)),
            "channel": .int(Int(channel.rawValue)),
            "round": round.map(JSONValue.int) ?? .null,
            "title": .string(title),
            "votes": .array(votes.map { vote in
                ["name": .string(vote.name), "card": .string(vote.card.name), "cardRaw": .string(vote.card.hex)]
            }),
            "median": median.map(JSONValue.double) ?? .null,
            "mean": mean.map(JSONValue.double) ?? .null,
            "nearest": .string(nearest?.name),
            "consensus": .bool(consensus),
            "questions": .int(questions),
            "coffees": .int(coffees),
            "story": story?.json ?? .null,
            "agreed": .string(agreed?.name),
        ]
        guard let joined, case let .object(members) = object else { return object.text }
        return JSONValue.object(members + [JSONMember("joined", .int(joined))]).text
    }

    /// The record a line of the history file holds (with or without its
    /// newline), or `nil` when the line is damaged: not one JSON object, a
    /// key missing, or a value of the wrong type or out of range. Invalid
    /// UTF-8 is read as U+FFFD, so a damaged byte in a name costs only
    /// that character. Unknown keys are ignored. `cardRaw` decides a vote's
    /// card.
    public init?(jsonLine bytes: some Collection<UInt8>) {
        let repaired = Array(String(decoding: bytes, as: UTF8.self).utf8)
        guard let json = try? JSONValue.parse(repaired),
            let id = json["id"]?.string,
            let time = json["time"]?.string.flatMap(RFC3339.timestamp),
            let channel = json["channel"]?.integer.flatMap(UInt8.init(exactly:)),
            let round = Self.optional(json["round"], { $0.integer.flatMap { (0...15).contains($0) ? $0 : nil } }),
            let title = Self.optional(json["title"], \.string),
            case let .array(items)? = json["votes"],
            let median = Self.optional(json["median"], Self.finite),
            let mean = Self.optional(json["mean"], Self.finite),
            let nearest = Self.optional(json["nearest"], { $0.string.flatMap(Card.init(named:)) }),
            let consensus = json["consensus"]?.bool,
            let questions = json["questions"]?.integer, questions >= 0,
            let coffees = json["coffees"]?.integer, coffees >= 0,
            let story = Self.optional(json["story"] ?? .null, Story.init(json:)),
            let agreed = Self.optional(json["agreed"] ?? .null, { $0.string.flatMap(Card.init(named:)) }),
            let joined = Self.optional(json["joined"] ?? .null, { $0.integer.flatMap { (0...15).contains($0) ? $0 : nil } })
        else { return nil }
        var votes: [Vote] = []
        for item in items {
            guard let name = item["name"]?.string, let raw = item["cardRaw"]?.string, raw.utf8.count == 2,
                let byte = Hex.byte(high: raw.utf8.first!, low: raw.utf8.last!)
            else { return nil }
            votes.append(Vote(name: name, card: Card(rawValue: byte)))
        }
        // The file keeps milliseconds: a finer time written by hand is cut to them, so
        // reading a line and writing it back is stable.
        let millisecond: Int64 = 1_000_000
        let nanoseconds = time.nanosecondsSince1970
        let remainder = (nanoseconds % millisecond + millisecond) % millisecond
        self.init(
            id: id, time: Timestamp(nanosecondsSince1970: nanoseconds - remainder), channel: Channel(rawValue: channel), round: round, title: title, votes: votes,
            median: median, mean: mean, nearest: nearest, consensus: consensus, questions: questions, coffees: coffees,
            story: story, agreed: agreed, joined: joined)
    }

    /// `.some(nil)` for JSON null, `.some(value)` when `convert` accepts the
    /// value, `nil` (damaged) when the key is missing or `convert` refuses it.
    private static func optional<T>(_ value: JSONValue?, _ convert: (JSONValue) -> T?) -> T?? {
        guard let value else { return nil }
        if value == .null { return .some(nil) }
        return convert(value).map { .some($0) }
    }

    private static func finite(_ value: JSONValue) -> Double? {
        guard case let .number(text) = value, let number = Double(text), number.isFinite else { return nil }
        return number
    }
}

// MARK: - Export

extension HistoryRecord {
    /// One record per story, as `history --csv` and `--json` export them
    /// (`TrackerExport` then keeps those a tracker can take):
    /// of a story voted in several rounds (a re-vote after a discussion),
    /// the newest round with an agreed estimate, else its newest round; in
    /// the order the stories were first voted. Stories are told apart as
    /// `Story.isSame` says; each round without a story is one of its own.
    public static func perStory(_ records: [HistoryRecord]) -> [HistoryRecord] {
        var chosen: [HistoryRecord] = []
        var index: [Story.Identity: Int] = [:]
        for record in records {
            guard let identity = record.subject?.identity else {
                chosen.append(record)
                continue
            }
            guard let at = index[identity] else {
                index[identity] = chosen.count
                chosen.append(record)
                continue
            }
            if record.agreed != nil || chosen[at].agreed == nil { chosen[at] = record }
        }
        return chosen
    }

    /// The header of `history --csv --all`: the first three are the names
    /// of Jira's fields, as in `TrackerExport.header`.
    public static let csvHeader = CSV.record([
        "Issue key", "Summary", "Story Points", "Median", "Mean", "Cards", "Time", "Channel", "Round", "Nearest",
        "Consensus", "Questions", "Coffees",
    ], for: .spreadsheet)

    /// The record as a CSV row for a spreadsheet (RFC 4180, formulas neutralised), without
    /// the line ending: the story's key and summary (`subject`), the agreed
    /// estimate, the figures, and the cards as `Alice=5; Bob=8` (cards by
    /// name: `0.5`, `M`, `?`, `coffee`; an unknown byte as `?` and its hex,
    /// `?42`).
    public var csvRow: String {
        CSV.record([
            subject?.key ?? "", subject?.summary ?? "", agreed?.name ?? "",
            median.map(Self.figure) ?? "", mean.map(Self.figure) ?? "",
            votes.map { "\($0.name)=\($0.card.name ?? "?" + $0.card.hex)" }.joined(separator: "; "),
            RFC3339.string(time), channel.description, round.map(String.init) ?? "", nearest?.name ?? "",
            consensus ? "true" : "false", String(questions), String(coffees),
        ], for: .spreadsheet)
    }

    /// A figure as a spreadsheet reads it: whole numbers without `.0`.
    static func figure(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return value.description
    }
}

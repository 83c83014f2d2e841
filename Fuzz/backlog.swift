// libFuzzer target `backlog` (mk/fuzz.mk): the backlog reader over any file,
// with the column options and the file's extension taken from the input's
// first five bytes:
//   flags, key number, summary number, key name's length, summary name's length,
//   then the key name, the summary name (lengths taken mod 32), and the file.
// flags: bits 0-1 the key option (1 by number, 2 by name, else none), bits
// 2-3 the summary option, bits 4-5 the extension (.csv, .tsv, .txt, .md).

import EstimatorKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(data, count)
    guard input.count >= 5 else { return 0 }
    let flags = input[0]
    let keyLength = Int(input[3] % 32), summaryLength = Int(input[4] % 32)
    var rest = input.dropFirst(5)
    let keyName = String(decoding: rest.prefix(keyLength), as: UTF8.self)
    rest = rest.dropFirst(keyLength)
    let summaryName = String(decoding: rest.prefix(summaryLength), as: UTF8.self)
    let file = Array(rest.dropFirst(summaryLength))

    func column(_ mode: UInt8, number: UInt8, name: String) -> BacklogColumn? {
        switch mode & 3 {
        case 1: BacklogColumn(String(number))
        case 2: BacklogColumn(name)
        default: nil
        }
    }
    let key = column(flags, number: input[1], name: keyName)
    let summary = column(flags >> 2, number: input[2], name: summaryName)
    let name = ["fuzz.csv", "fuzz.tsv", "fuzz.txt", "fuzz.md"][Int(flags >> 4 & 3)]

    do throws(BacklogError) {
        let backlog = try Backlog(parsing: file, named: name, keyColumn: key, summaryColumn: summary)
        check((1...Backlog.maximumStories).contains(backlog.stories.count), "\(backlog.stories.count) stories from \(input)")
        check(key == nil && summary == nil || !backlog.columns.isEmpty, "named columns read as a list: \(input)")
        check(backlog.columns.count <= 2 && !backlog.columns.contains(where: actsOnTerminal), "bad columns from \(input)")
        check(Set(backlog.stories.map(\.identity)).count == backlog.stories.count, "a story twice from \(input)")
        for story in backlog.stories {
            check(!actsOnTerminal(story.title) && !story.title.contains("\n"), "a story holds a control: \(input)")
            check(story.summary.count <= Story.maximumSummaryLength, "a summary too long from \(input)")
            check(story.key.map { !$0.isEmpty && $0.count <= Story.maximumKeyLength } ?? !story.summary.isEmpty,
                  "an empty or too long story from \(input)")
            check(TerminalText.sanitize(story.title) == story.title, "a story changes when sanitised: \(input)")
        }
        check(Backlog(json: Array(backlog.json.utf8)) == backlog, "the JSON kept does not read back: \(input)")
    } catch {
        let sentence = error.description
        check(!actsOnTerminal(sentence), "a refusal holds a control for \(input)")
        check(sentence.contains(name) && sentence.hasSuffix("."), "a refusal is no sentence naming the file: \(input)")
    }
    return 0
}

import Foundation
import Testing

@Suite(.timeLimit(.minutes(2))) struct PacketEncodeCommandTests {
    @Test func printsTheLocalName() throws {
        let result = try EstimatorProcess.run("packet", "encode", "--channel", "1", "--card", "8", "--name", "전수열")
        #expect(result.status == 0)
        #expect(result.stdout == "010108전수열\n")
        #expect(result.stderr == "")
    }

    @Test func printsItsBytesAsHex() throws {
        let result = try EstimatorProcess.run("packet", "encode", "--card", "coffee", "--name", "Ann", "--hex")
        #expect(result.status == 0)
        #expect(result.stdout == "303130304645416E6E\n")
    }

    @Test func composesDecomposedKorean() throws {
        let nfd = "\u{110C}\u{1165}\u{11AB}\u{1109}\u{116E}\u{110B}\u{1167}\u{11AF}"
        let result = try EstimatorProcess.run("packet", "encode", "--card", "½", "--name", nfd, "--hex")
        #expect(result.stdout == "303130303746" + "ECA084EC8898EC97B4" + "\n")
        #expect(result.stderr == "")
    }

    @Test func warnsWhenItShortensTheName() throws {
        let result = try EstimatorProcess.run("packet", "encode", "--card", "8", "--name", "전수열전수열")
        #expect(result.status == 0)
        #expect(result.stdout == "010008전수열전\n")
        #expect(result.stderr == "Warning: '전수열전수열' is longer than 12 bytes; it was shortened to '전수열전'.\n")
    }

    @Test(arguments: [
        (["--name", " "], "The name is empty"),
        (["--name", "a\u{1B}[2J"], "control character U+001B"),
    ])
    func badNamesAreRefusedAsJoinRefusesThem(_ arguments: [String], _ message: String) async throws {
        let encode = try EstimatorProcess.run(arguments: ["packet", "encode", "--card", "8"] + arguments)
        #expect(encode.status == 65)
        #expect(encode.stderr.hasPrefix("Error: ") && encode.stderr.contains(message))
        let sandbox = try await SessionSandbox.start()
        let join = try await sandbox.run(arguments: ["join"] + arguments)
        #expect(join.status == 65)
        #expect(join.stderr == encode.stderr, "the same sentence")
    }

    /// One rule for a long name, whatever its length: cut at a character
    /// boundary with a warning, by `packet encode` and `join` alike.
    @Test(arguments: [64, 300])
    func aLongNameIsCutWhateverItsLength(_ length: Int) async throws {
        let long = String(repeating: "전", count: length / 3) + String(repeating: "x", count: length % 3)
        let warning = "Warning: '\(long)' is longer than 12 bytes; it was shortened to '전전전전'.\n"
        let encode = try EstimatorProcess.run("packet", "encode", "--channel", "1", "--card", "8", "--name", long)
        #expect(encode.status == 0 && encode.stdout == "010108전전전전\n")
        #expect(encode.stderr == warning)
        let sandbox = try await SessionSandbox.start()
        let join = try await sandbox.run("join", "--channel", "1", "--name", long)
        #expect(join.status == 0, "\(join.stderr)")
        #expect(join.stdout.hasPrefix("joined channel 1 as 전전전전 on hci0"), "\(join.stdout)")
        #expect(join.stderr.contains(warning), "\(join.stderr)")
        try await sandbox.run("leave")
    }

    @Test func aChannelIsRefusedAsJoinRefusesIt() async throws {
        let encode = try EstimatorProcess.run("packet", "encode", "--card", "8", "--name", "Ann", "--channel", "256")
        let sandbox = try await SessionSandbox.start()
        let join = try await sandbox.run("join", "--channel", "256")
        let sentence = "Error: The value '256' is invalid for '--channel <channel>': a channel is a whole number from 0 to 255."
        #expect(encode.stderr == sentence + " See 'estimator packet encode --help' for more information.\n")
        #expect(join.stderr == sentence + " See 'estimator join --help' for more information.\n")
        #expect(encode.status == 64 && join.status == 64)
    }

    @Test func aCutNameDropsItsTrailingSpace() throws {
        let result = try EstimatorProcess.run("packet", "encode", "--card", "8", "--name", "Christopher Robin")
        #expect(result.stdout == "010008Christopher\n")
    }

    @Test func warnsThatTheAppCannotSeeOneCharacterNames() throws {
        let result = try EstimatorProcess.run("packet", "encode", "--card", "8", "--name", "열")
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("Warning: The Estimator iOS app does not show one-character names"))
    }

    @Test(arguments: [
        (["--card", "127", "--name", "Ann"], "The value '127' is invalid for '--card <card>': valid cards are"),
        (["--card", "8", "--channel", "256", "--name", "Ann"], "The value '256' is invalid for '--channel <channel>': a channel is"),
        (["--name", "Ann"], "Missing expected argument '--card <card>'"),
    ])
    func badInputIsAUsageError(_ arguments: [String], _ message: String) throws {
        let result = try EstimatorProcess.run(arguments: ["packet", "encode"] + arguments)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.contains(message))
        #expect(!result.stderr.contains("\u{1B}"))
    }
}

@Suite(.timeLimit(.minutes(2))) struct PacketDecodeCommandTests {
    @Test func printsTheFields() throws {
        let result = try EstimatorProcess.run("packet", "decode", "0001FE전수열")
        #expect(result.status == 0)
        #expect(result.stdout == """
            version  00
            channel  1 (01)
            round    none
            card     ☕ (FE)
            name     전수열

            """)
    }

    @Test func printsExactlyOneJSONObject() throws {
        let result = try EstimatorProcess.run("packet", "decode", "010108전수열", "--json")
        #expect(result.status == 0)
        #expect(result.stdout == #"{"version":"01","channel":1,"round":null,"revealed":false,"onDemand":false,"holding":false,"card":"8","cardRaw":"08","name":"전수열"}"# + "\n")
    }

    @Test func decksCardsEncodeAsTheirBytesAndDecodeByName() throws {
        #expect(try EstimatorProcess.run("packet", "encode", "--channel", "1", "--card", "21", "--name", "Ann").stdout == "010115Ann\n")
        #expect(try EstimatorProcess.run("packet", "encode", "--channel", "1", "--card", "M", "--name", "Ann").stdout == "010182Ann\n")
        #expect(try EstimatorProcess.run("packet", "encode", "--card", "xxl", "--name", "Ann", "--hex").stdout == "303130303835416E6E\n")
        let json = try EstimatorProcess.run("packet", "decode", "010182Ann", "--json")
        #expect(json.stdout.contains(#""card":"M","cardRaw":"82","name":"Ann"}"#))
        #expect(try EstimatorProcess.run("packet", "decode", "010140Ann", "--json").stdout.contains(#""card":"64","cardRaw":"40""#))
        let table = try EstimatorProcess.run("packet", "decode", "010122Ann")
        #expect(table.stdout.contains("card     34 (22)\n"))
    }

    @Test func anUnknownCardIsNullInJSONAndNamedInTheTable() throws {
        let json = try EstimatorProcess.run("packet", "decode", "01ff99Bob", "--json")
        #expect(json.stdout == #"{"version":"01","channel":255,"round":null,"revealed":false,"onDemand":false,"holding":false,"card":null,"cardRaw":"99","name":"Bob"}"# + "\n")
        let table = try EstimatorProcess.run("packet", "decode", "01ff99Bob")
        #expect(table.stdout.contains("card     unknown (99)\n"))
    }

    @Test func readsHexWithTheNameCutInsideACharacter() throws {
        let result = try EstimatorProcess.run("packet", "decode", "--hex", "30 31 30 31 30 33 EC A0 84 EC 88", "--json")
        #expect(result.status == 0)
        #expect(result.stdout == #"{"version":"01","channel":1,"round":null,"revealed":false,"onDemand":false,"holding":false,"card":"3","cardRaw":"03","name":"전"}"# + "\n")
        let table = try EstimatorProcess.run("packet", "decode", "--hex", "30 31 30 31 30 33 EC A0 84 EC 88")
        #expect(table.stdout.contains("name     전…  (cut: an iPhone sends the app's local name cut to 8 bytes)\n"))
    }

    @Test func neverPrintsWhatATerminalWouldActOn() throws {
        let hostile = "0101FE\u{1B}]52;c;ZXZpbA==\u{07}\u{202E}Eve\u{1B}[2J"
        let table = try EstimatorProcess.run("packet", "decode", hostile)
        #expect(table.status == 0)
        #expect(table.stdout.contains("name     Eve  (characters a terminal would act on removed; 26 bytes, longer than the 12 estimator sends)\n"))
        let json = try EstimatorProcess.run("packet", "decode", hostile, "--json")
        #expect(json.stdout.hasSuffix(#""name":"Eve"}"# + "\n"))
        for output in [table.stdout, json.stdout] {
            #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" })
        }
    }

    @Test(arguments: [
        (["0101"], #""0101" is too short for a packet"#),
        (["040108Bob"], #"version "04" is unknown"#),
        (["01GG08Bob"], #"channel "GG" is not two hex digits"#),
        (["0101\u{1B}[Bob"], #"card "\x1B[" is not two hex digits"#),
        (["230108"], "has no name"),
        (["--hex", "3031zz"], "'3031zz' is not hex bytes"),
        (["--hex", "303"], "'303' is not hex bytes"),
    ])
    func garbageExits65WithOneSentence(_ arguments: [String], _ message: String) throws {
        let result = try EstimatorProcess.run(arguments: ["packet", "decode"] + arguments)
        #expect(result.status == 65)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.contains(message))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test(arguments: [[], ["-"], ["--hex"], ["--hex", "-"]])
    func readsStandardInputWithoutAnArgument(_ arguments: [String]) throws {
        let hex = arguments.contains("--hex")
        let result = try EstimatorProcess.run(arguments: ["packet", "decode", "--json"] + arguments,
                                              input: hex ? "30 31 30 31 30 38 41 6E 6E\n" : "010108Ann\r\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"version":"01","channel":1,"round":null,"revealed":false,"onDemand":false,"holding":false,"card":"8","cardRaw":"08","name":"Ann"}"# + "\n")
    }

    @Test func encodesHexThatDecodeReadsFromAPipe() throws {
        let encoded = try EstimatorProcess.run("packet", "encode", "--channel", "7", "--card", "13", "--name", "전수열", "--hex")
        let decoded = try EstimatorProcess.run(arguments: ["packet", "decode", "--hex"], input: encoded.stdout)
        #expect(decoded.stdout.contains("name     전수열\n"))
        #expect(decoded.stdout.contains("channel  7 (07)\n"))
    }

    @Test func roundsAndTheAppsThirteenDecode() throws {
        let round = try EstimatorProcess.run("packet", "decode", "2A01FCAnn", "--json")
        #expect(round.stdout == #"{"version":"2A","channel":1,"round":10,"revealed":false,"onDemand":false,"holding":false,"card":"waiting","cardRaw":"FC","name":"Ann"}"# + "\n")
        let app = try EstimatorProcess.run("packet", "decode", "0100DAlice", "--json")
        #expect(app.stdout == #"{"version":"01","channel":0,"round":null,"revealed":false,"onDemand":false,"holding":false,"card":"13","cardRaw":"0D","name":"Alice"}"# + "\n")
        let onDemand = try EstimatorProcess.run("packet", "decode", "5301F9Olga", "--json")
        #expect(onDemand.stdout == #"{"version":"53","channel":1,"round":3,"revealed":true,"onDemand":true,"holding":false,"card":"observing","cardRaw":"F9","name":"Olga"}"# + "\n")
        let sealed = try EstimatorProcess.run("packet", "decode", "2301FBAnn", "--json")
        #expect(sealed.stdout == #"{"version":"23","channel":1,"round":3,"revealed":false,"onDemand":false,"holding":false,"card":"sealed","cardRaw":"FB","name":"Ann"}"# + "\n")
        let onDemandText = try EstimatorProcess.run("packet", "decode", "5301F9Olga")
        #expect(onDemandText.stdout.contains("round    3, revealed on demand\n"))
        let encoded = try EstimatorProcess.run("packet", "encode", "--round", "3", "--channel", "1", "--card", "none", "--name", "Ann")
        #expect(encoded.stdout == "2301FCAnn\n")
        let refused = try EstimatorProcess.run("packet", "encode", "--round", "16", "--card", "5", "--name", "Ann")
        #expect(refused.status == 64)
    }

    @Test func encodeAndDecodeRoundTripThroughHex() throws {
        let hex = try EstimatorProcess.run("packet", "encode", "--channel", "200", "--card", "?", "--name", "👍🏽Jo", "--hex")
        let decoded = try EstimatorProcess.run("packet", "decode", "--hex", String(hex.stdout.dropLast()), "--json")
        #expect(decoded.stdout == #"{"version":"01","channel":200,"round":null,"revealed":false,"onDemand":false,"holding":false,"card":"?","cardRaw":"FD","name":"👍🏽Jo"}"# + "\n")
    }

    /// decode --help names every version the binary reads, as its refusal
    /// does, and every key its --json prints.
    @Test func decodeHelpIsTrueOfTheBinary() throws {
        let help = try EstimatorProcess.run("packet", "decode", "--help").stdout.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        let refused = try EstimatorProcess.run("packet", "decode", "6301FEAnn")
        #expect(refused.stderr.contains("versions 00 to 03 and 20 to 5F are understood"), "\(refused.stderr)")
        for versions in ["00 and 01", "02 and 03", "20 to 2F", "30 to 3F", "40 to 4F", "50 to 5F"] {
            #expect(help.contains(versions), "\(versions)")
        }
        #expect(try EstimatorProcess.run("packet", "decode", "5301F9Olga").status == 0)
        let json = try EstimatorProcess.run("packet", "decode", "5301F9Olga", "--json").stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let keys = try #require(help.range(of: "JSON keys, in this order:")).upperBound
        for key in object.keys { #expect(help[keys...].contains(" \(key) ("), "\(key) is not in the help") }
        #expect(object["onDemand"] as? Bool == true && object["revealed"] as? Bool == true)
    }
}

import EstimatorKit
import Foundation
import PropertyBased
import Testing

@Suite struct JSONTextTests {
    @Test func objectsKeepTheirKeyOrder() {
        let value: JSONValue = ["version": "01", "channel": 1, "card": "8", "cardRaw": "08", "name": "전수열"]
        #expect(value.text == #"{"version":"01","channel":1,"card":"8","cardRaw":"08","name":"전수열"}"#)
        let reversed: JSONValue = ["z": 1, "a": 2]
        #expect(reversed.text == #"{"z":1,"a":2}"#)
    }

    @Test func everyKindOfValue() {
        let value: JSONValue = [
            "null": nil, "t": true, "f": false, "int": -3, "half": .double(0.5), "nan": .double(.nan),
            "inf": .double(-.infinity), "none": .string(nil as String?), "some": .string("x" as String?),
            "list": [1, "two", [], [:]],
        ]
        #expect(value.text == #"{"null":null,"t":true,"f":false,"int":-3,"half":0.5,"nan":null,"inf":null,"none":null,"some":"x","list":[1,"two",[],{}]}"#)
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote\" back\\slash", #""quote\" back\\slash""#),
        ("\n\r\t\u{8}\u{C}", #""\n\r\t\b\f""#),
        ("\u{0}\u{1F}\u{1B}[31m", #""\u0000\u001f\u001b[31m""#),
        ("\u{7F}\u{85}\u{9B}", #""\u007f\u0085\u009b""#),
        ("a\u{2028}b\u{2029}", #""a\u2028b\u2029""#),
        ("\u{202E}evil\u{2066}", #""\u202eevil\u2066""#),
        ("전수열 👍🏽 /", #""전수열 👍🏽 /""#),
    ])
    func stringsAreEscaped(_ input: String, _ expected: String) {
        #expect(JSONText.quoted(input) == expected)
        #expect(JSONValue.string(input).text == expected)
    }

    @Test func keysAreEscapedToo() {
        let value: JSONValue = .object([JSONMember("a\"b\n", 1)])
        #expect(value.text == #"{"a\"b\n":1}"#)
    }
}

/// Foundation's JSON parser is the oracle: whatever we write, it reads back
/// scalar for scalar.
@Suite struct JSONTextOracleTests {
    @Test func foundationReadsBackAnyString() async {
        await propertyCheck(count: 1000, input: anyText) { s in
            let value: JSONValue = ["name": .string(s), "n": 1]
            let decoded = try? JSONDecoder().decode([String: JSONScalarOrNumber].self, from: Data(value.text.utf8))
            #expect(decoded?["name"]?.scalars == Array(s.unicodeScalars))
        }
    }
}

private enum JSONScalarOrNumber: Decodable {
    case text(String)
    case number(Int)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let n = try? container.decode(Int.self) { self = .number(n) } else { self = .text(try container.decode(String.self)) }
    }

    var scalars: [Unicode.Scalar]? {
        if case .text(let s) = self { Array(s.unicodeScalars) } else { nil }
    }
}

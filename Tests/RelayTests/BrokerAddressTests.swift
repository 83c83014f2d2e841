import Relay
import Testing

@Suite struct BrokerAddressTests {
    @Test func parsesTLSAndPlainWithDefaultPorts() throws {
        #expect(try BrokerAddress(parsing: "mqtts://broker.example/team")
            == BrokerAddress(host: "broker.example", port: 8883, usesTLS: true, path: "team"))
        #expect(try BrokerAddress(parsing: "mqtt://127.0.0.1:1884/r1")
            == BrokerAddress(host: "127.0.0.1", port: 1884, usesTLS: false, path: "r1"))
        #expect(try BrokerAddress(parsing: "mqtts://[::1]:8884/r").host == "::1")
        #expect(try BrokerAddress(parsing: "mqtts://[::1]:8884/r").description == "mqtts://[::1]:8884/r")
    }

    @Test(arguments: [
        ("https://broker/room", BrokerAddressError.scheme),
        ("mqtts://broker", .missingPath),
        ("mqtts://broker/", .invalidPath),
        ("mqtts://broker/a/b", .invalidPath),
        ("mqtts://broker/a+", .invalidPath),
        ("mqtts://broker/#", .invalidPath),
        ("mqtts://broker/a\u{1B}[2J", .invalidPath),
        ("mqtts://broker:0/room", .invalidPort),
        ("mqtts://broker:99999/room", .invalidPort),
        ("mqtts://broker:x/room", .invalidPort),
        ("mqtts://user@broker/room", .invalidHost),
        ("mqtts:///room", .invalidHost),
    ])
    func refusesWithOneSentence(url: String, error: BrokerAddressError) {
        #expect(throws: error) { try BrokerAddress(parsing: url) }
        #expect(error.description.hasSuffix("."))
    }
}

@Suite struct TopicTests {
    @Test func levelsOfReceivedTopicsAreCappedAndUTF8() {
        #expect(Topic.levels(Array("a/b//c".utf8)) == ["a", "b", "", "c"])
        #expect(Topic.levels([0x61, 0xFF]) == nil)
        #expect(Topic.levels(Array(repeating: 0x61, count: Topic.maximumLength + 1)) == nil)
    }
}

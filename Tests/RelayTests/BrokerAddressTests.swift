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

@Suite struct BackoffTests {
    /// SplitMix64: a seeded generator, so the test sees many jitters.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func doublesUpToTheCapWithJitterBetweenHalfAndOneAndAHalf() {
        var random = Seeded(state: 42)
        for _ in 0..<50 {
            var backoff = Backoff(first: .milliseconds(500), cap: .seconds(4))
            let nominal: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4)]
            for base in nominal {
                let delay = backoff.next(using: &random)
                #expect(delay >= base / 2 && delay <= base * 3 / 2, "\(delay) around \(base)")
            }
            backoff.reset()
            #expect(backoff.next(using: &random) <= .milliseconds(750), "a success starts again from the first delay")
        }
    }

    @Test func jitterSpreadsTheRetries() {
        var random = Seeded(state: 7)
        let delays = Set((0..<20).map { _ in
            var backoff = Backoff(first: .seconds(1), cap: .seconds(1))
            return backoff.next(using: &random)
        })
        #expect(delays.count > 15, "sessions a broker restart dropped do not come back together")
    }
}

@Suite struct TopicTests {
    @Test func levelsOfReceivedTopicsAreCappedAndUTF8() {
        #expect(Topic.levels(Array("a/b//c".utf8)) == ["a", "b", "", "c"])
        #expect(Topic.levels([0x61, 0xFF]) == nil)
        #expect(Topic.levels(Array(repeating: 0x61, count: Topic.maximumLength + 1)) == nil)
    }
}

import DBusTestSupport
import Foundation
import Testing

/// What anyone who can publish on the room's topics sends, through a real
/// mosquitto and the built `estimator` and `estimator-relay`: hostile
/// names and shapes, and a crowd of retained fake people.
@Suite(.timeLimit(.minutes(2))) struct RelayHostileBrokerCLITests {
    @Test func hostileMessagesNeverCrashOrReachTheTerminal() async throws {
        let broker = try await TestBroker.start(tls: false)
        let bob = try Teammate("Bob")
        #expect(try await bob.join(broker).status == 0)
        let (watch, lines) = try bob.watch()
        let esc: UInt8 = 0x1B
        let room = "estimator/1/room"
        try await broker.publish("\(room)/3/evil", Array("010305".utf8) + [esc] + Array("[2JEvil".utf8))
        try await broker.publish("\(room)/3/osc", Array("010305".utf8) + [esc] + Array("]52;c;aGk=".utf8) + [0x07])
        try await broker.publish("\(room)/3/c1", Array("010305".utf8) + [0xC2, 0x9B] + Array("31mRed".utf8))
        try await broker.publish("\(room)/3/utf8", Array("010305".utf8) + [0xFF, 0xFE, 0x41])
        try await broker.publish("\(room)/3/big", Array("010305".utf8) + Array(repeating: 0x41, count: 5000))
        try await broker.publish("\(room)/3/text", Array("hello, world".utf8))
        try await broker.publish("\(room)/4/wrongchannel", Array("010305Wrong".utf8))
        try await broker.publish("\(room)/999/x", Array("010305Nine".utf8))
        try await broker.publish("\(room)/3/a/b/c", Array("010305Deep".utf8))
        try await broker.publish("\(room)/3/" + String(repeating: "x", count: 300), Array("010305Long".utf8))
        try await broker.publish("\(room)/3/zed", Array("010305Zed".utf8))
        try await lines.next { $0.contains("Zed") }
        let status = try await bob.run("status", "--adapter", "none")
        #expect(status.status == 0, "the session is alive")
        #expect(try await bob.run("leave", "--adapter", "none").status == 0)
        let (out, _) = try await offPool { watch.finish() }
        let bytes = Array(out.utf8) + lines.seen.flatMap { $0 }
        #expect(!bytes.contains(esc) && !bytes.contains(0x07), "no escape or bell reaches the terminal")
        #expect(!out.contains("\u{9B}"), "no C1 control")
        let shown = lines.seen.map { String(decoding: $0, as: UTF8.self) }
        #expect(shown.contains { $0.contains("Evil") }, "a hostile name is shown, made safe")
        for dropped in ["Wrong", "Nine", "Deep", "Long", "AAAA"] {
            #expect(!shown.contains { $0.contains(dropped) }, "\(dropped) was dropped")
        }
    }

    /// More retained fake people than the table holds, kept by the broker
    /// without an expiry (or for a day), are nobody: a teammate who joins
    /// after them is on the table and counted, alone.
    @Test func retainedFakePeopleWithoutAShortExpiryLeaveTheRoomToTheLiving() async throws {
        let broker = try await TestBroker.start(tls: false)
        let room = "estimator/1/room/3"
        for index in 0..<70 {
            try await broker.publish("\(room)/fake\(index)", Array("010305Fake\(index)".utf8), expiry: nil)
        }
        try await broker.publish("\(room)/daylong", Array("010305Daylong".utf8), expiry: 86400)
        let bob = try Teammate("Bob"), ivan = try Teammate("Ivan")
        #expect(try await bob.join(broker).status == 0)
        let (watch, lines) = try bob.watch("--json", "--open")
        #expect(try await ivan.join(broker).status == 0)
        try await lines.next { $0.contains(#""event":"joined""#) && $0.contains(#""name":"Ivan""#) && $0.contains(#""heard":"relay""#) }
        let status = try await bob.run("status", "--adapter", "none")
        #expect(status.stdout.contains("1 person heard in channel 3"), "\(status.stdout)")
        #expect(try await ivan.run("leave", "--adapter", "none").status == 0)
        #expect(try await bob.run("leave", "--adapter", "none").status == 0)
        _ = try await offPool { watch.finish() }
        let shown = lines.seen.map { String(decoding: $0, as: UTF8.self) }
        #expect(!shown.contains { $0.contains("Fake") || $0.contains("Daylong") }, "no fake was ever shown")
    }
}

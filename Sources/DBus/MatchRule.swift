import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// Which signals a subscription receives: the bus's match-rule language as a value.
///
/// The rule is installed on the bus (`AddMatch`) so the bus routes the signals to us,
/// and checked again locally so each subscription only sees its own signals.
public struct MatchRule: Hashable, Sendable, CustomStringConvertible {
    /// The sending bus name: a unique name (`:1.42`) or a well-known one (`org.bluez`,
    /// followed to whoever owns it).
    public var sender: String?
    /// Exactly this object path.
    public var path: ObjectPath?
    /// This path or any below it.
    public var pathNamespace: ObjectPath?
    /// The signal's interface.
    public var interface: String?
    /// The signal's name.
    public var member: String?
    /// String arguments that must be equal, by index (`arg0='org.bluez.Device1'`).
    public var arguments: [Int: String]
    /// Path arguments, by index (`arg0path='/org/bluez/hci0/'`): a string or
    /// object path argument matches when it equals the value, or when one of
    /// the two ends in `/` and begins the other. So `/org/bluez/hci0/` takes
    /// every object below hci0 but not hci0 itself, and `/org/bluez/hci0`
    /// takes hci0 alone: an ObjectManager's additions and removals, whose
    /// first argument is the object's path, of one subtree.
    public var pathArguments: [Int: String]

    public init(
        sender: String? = nil, path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil,
        interface: String? = nil, member: String? = nil, arguments: [Int: String] = [:],
        pathArguments: [Int: String] = [:]
    ) {
        self.sender = sender
        self.path = path
        self.pathNamespace = pathNamespace
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.pathArguments = pathArguments
    }

    /// The rule in the bus's text form, such as `type='signal',interface='org.x.Y'`.
    public var description: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            // Inside quotes only the quote itself needs escaping: close, escape, reopen.
            guard let value else { return }
            var quoted = "\(key)='"
            for character in value { quoted += character == "'" ? "'\\''" : String(character) }
            parts.append(quoted + "'")
        }
        add("sender", sender)
        add("path", path?.rawValue)
        add("path_namespace", pathNamespace?.rawValue)
        add("interface", interface)
        add("member", member)
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) { add("arg\(index)", value) }
        for (index, value) in pathArguments.sorted(by: { $0.key < $1.key }) { add("arg\(index)path", value) }
        return parts.joined(separator: ",")
    }

    /// Checks names and argument indexes before anything is sent to the bus.
    func validate() throws(DBusError) {
        if let sender, !DBusSyntax.isBusName(sender) { throw .invalidArguments("bad sender \"\(sender)\" in match rule") }
        if let interface, !DBusSyntax.isInterfaceName(interface) {
            throw .invalidArguments("bad interface \"\(interface)\" in match rule")
        }
        if let member, !DBusSyntax.isMemberName(member) { throw .invalidArguments("bad member \"\(member)\" in match rule") }
        for (index, value) in Array(arguments) + Array(pathArguments) {
            guard (0...63).contains(index) else { throw .invalidArguments("match rule argument index \(index) is not 0...63") }
            if value.utf8.contains(0) { throw .invalidArguments("match rule argument holds NUL") }
        }
    }
}

/// A rule prepared for matching on the loop thread without building Swift strings.
/// A class: every signal is checked against every rule, and copying a struct of five
/// arrays for each check is a measurable part of routing (perf, make bench-session).
final class CompiledMatchRule: Sendable {
    /// The sending bus name, looked up (to its current owner) only when all else matched.
    private let sender: String?
    private let path: [CChar]?
    private let namespace: [CChar]?
    private let interface: [CChar]?
    private let member: [CChar]?
    private let arguments: [(index: Int, value: [CChar])]
    private let pathArguments: [(index: Int, value: [CChar])]

    init(_ rule: MatchRule) {
        sender = rule.sender
        path = rule.path.map { Array($0.rawValue.utf8CString) }
        namespace = rule.pathNamespace.flatMap { $0.rawValue == "/" ? nil : Array($0.rawValue.utf8CString) }
        interface = rule.interface.map { Array($0.utf8CString) }
        member = rule.member.map { Array($0.utf8CString) }
        arguments = rule.arguments.sorted { $0.key < $1.key }.map { ($0.key, Array($0.value.utf8CString)) }
        pathArguments = rule.pathArguments.sorted { $0.key < $1.key }.map { ($0.key, Array($0.value.utf8CString)) }
    }

    /// Whether a signal matches; `senderOwner` gives the current unique name behind a
    /// rule's sender (the same name if it is unique, nil if nobody owns it).
    func matches(_ message: Message, senderOwner: (String) -> String?) -> Bool {
        if let interface, !message.header(dbus_message_get_interface, equals: interface) { return false }
        if let member, !message.header(dbus_message_get_member, equals: member) { return false }
        if let path, !message.header(dbus_message_get_path, equals: path) { return false }
        if let namespace, !Self.path(of: message, isIn: namespace) { return false }
        if !arguments.isEmpty, !argumentsMatch(message) { return false }
        if !pathArguments.isEmpty, !pathArgumentsMatch(message) { return false }
        if let sender {
            guard let owner = senderOwner(sender), let actual = dbus_message_get_sender(message.raw),
                owner.withCString({ strcmp($0, actual) }) == 0
            else { return false }
        }
        return true
    }

    private static func path(of message: Message, isIn namespace: [CChar]) -> Bool {
        guard let messagePath = dbus_message_get_path(message.raw) else { return false }
        let length = namespace.count - 1  // without the NUL
        guard strncmp(messagePath, namespace, length) == 0 else { return false }
        let next = messagePath[length]
        return next == 0 || next == CChar(UInt8(ascii: "/"))
    }

    /// Compares string arguments in place, as C strings: no Swift string per signal.
    private func argumentsMatch(_ message: Message) -> Bool {
        Self.each(of: arguments, in: message, orObjectPath: false) { strcmp($0, $1) == 0 }
    }

    /// Compares path arguments in place, as the bus does (see `MatchRule.pathArguments`).
    private func pathArgumentsMatch(_ message: Message) -> Bool {
        Self.each(of: pathArguments, in: message, orObjectPath: true) { actual, wanted in
            let actualLength = strlen(actual), wantedLength = wanted.count - 1  // without the NUL
            let shorter = min(actualLength, wantedLength)
            guard strncmp(actual, wanted, shorter) == 0 else { return false }
            if actualLength == wantedLength { return true }
            // The shorter one begins the longer: it must end in "/".
            guard shorter > 0 else { return false }
            let last = actualLength < wantedLength ? actual[shorter - 1] : wanted[shorter - 1]
            return last == CChar(UInt8(ascii: "/"))
        }
    }

    /// Whether each argument at its index is a string (or, with
    /// `orObjectPath`, an object path) that `matches` its wanted value
    /// (indexes in increasing order).
    private static func each(
        of wanted: [(index: Int, value: [CChar])], in message: Message, orObjectPath: Bool,
        _ matches: (UnsafePointer<CChar>, [CChar]) -> Bool
    ) -> Bool {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message.raw, &iter) != 0 else { return false }
        var index = 0
        for (position, value) in wanted {
            while index < position {
                guard dbus_message_iter_next(&iter) != 0 else { return false }
                index += 1
            }
            let type = dbus_message_iter_get_arg_type(&iter)
            guard type == TypeCode.string || orObjectPath && type == TypeCode.objectPath else { return false }
            var actual = DBusBasicValue()
            dbus_message_iter_get_basic(&iter, &actual)
            guard let text = actual.str, matches(text, value) else { return false }
        }
        return true
    }
}

import ArgumentParser
import EstimatorKit
import SessionDaemon

/// `estimator config`: what `join` and `watch` remember, where each value
/// comes from, and forgetting one or all.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the remembered settings, or forget one or all.",
        discussion: """
            join and watch remember what you typed for next time, in \
            $XDG_CONFIG_HOME/estimator/config.json (else ~/.config/estimator/config.json): \
            channel, name, adapter, role, deck, open, quiet, range, and the relay (relay, \
            relayUser, relayPasswordFile, relayCA). Without options this shows each \
            setting, its value, and whether it is remembered or the default.

            --reset SETTING forgets one, as if it had never been typed (relay forgets \
            the relay with its user and files); --reset all removes the file. A setting \
            whose value is damaged can be forgotten this way too.

            No password is ever remembered: the relay's comes from \
            ESTIMATOR_RELAY_PASSWORD, else from relayPasswordFile.

            Examples:
              $ estimator config
              $ estimator config --reset open     # cards hidden until the reveal again
              $ estimator config --reset all
              $ estimator config --json | jq .settings.channel
            """)

    @Option(help: ArgumentHelp("Forget this setting (\(ConfigSetting.list)), or all of them (the file goes).", valueName: "setting"))
    var reset: ConfigReset?

    @Flag(help: "One JSON object: the file, and each setting's value and whether it is remembered.")
    var json = false

    func validate() throws {
        guard !(json && reset != nil) else { throw ValidationError("--json shows the settings and --reset forgets one; give one.") }
    }

    func run() throws {
        let path = Config.path
        if let reset {
            let forgotten = try Config.reset(reset.setting, at: path)
            let what = reset.setting?.rawValue ?? "every setting"
            print(forgotten ? "forgot \(what) (\(path))" : "\(what): nothing was remembered (\(path))")
            return
        }
        let config = try Config.load(from: path)
        let rows = ConfigSetting.allCases.map { setting in
            let remembered = setting.remembered(in: config)
            let fallback = setting.fallback()
            return (setting, remembered?.json ?? fallback.json, remembered?.text ?? fallback.text, remembered != nil)
        }
        if json {
            let settings = rows.map { setting, value, _, remembered in
                JSONMember(setting.rawValue, .object([JSONMember("value", value), JSONMember("remembered", .bool(remembered))]))
            }
            print(JSONValue.object([JSONMember("file", .string(path)), JSONMember("settings", .object(settings))]).text)
            return
        }
        let width = rows.map(\.0.rawValue.count).max() ?? 0
        for (setting, _, text, remembered) in rows {
            let name = setting.rawValue + String(repeating: " ", count: width - setting.rawValue.count)
            print("\(name)  \(remembered ? "remembered" : "default   ")  \(TerminalText.sanitize(text))")
        }
        print("The relay's password is never remembered: it comes from ESTIMATOR_RELAY_PASSWORD, else from relayPasswordFile.")
        if rows.contains(where: \.3) {
            print("Remembered in \(TerminalText.sanitize(path)); `estimator config --reset SETTING` forgets one, `--reset all` every one.")
        } else {
            print("Nothing is remembered yet; join and watch write \(TerminalText.sanitize(path)).")
        }
    }
}

/// What `config --reset` forgets: one setting, or all of them (nil).
struct ConfigReset: CommandLineValue {
    let setting: ConfigSetting?

    static func argument(_ text: String) throws(ValidationError) -> ConfigReset {
        if text == "all" { return ConfigReset(setting: nil) }
        guard let setting = ConfigSetting(rawValue: text) else {
            throw ValidationError("the settings are \(ConfigSetting.list), or all.")
        }
        return ConfigReset(setting: setting)
    }

    static var completion: CompletionKind { .list(ConfigSetting.allCases.map(\.rawValue) + ["all"]) }
}

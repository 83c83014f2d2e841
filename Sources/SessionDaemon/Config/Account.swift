import EstimatorKit
import Glibc

/// The user running estimator, from the password database.
package struct Account {
    let login: String
    /// The full name: the GECOS field up to its first comma; may be empty.
    let fullName: String
    package let home: String

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(login: String, fullName: String, home: String) {
        self.login = login
        self.fullName = fullName
        self.home = home
    }

    package static var current: Account {
        guard let entry = getpwuid(getuid()) else {
            return Account(login: Environment.value("USER") ?? "estimator", fullName: "", home: "/")
        }
        let gecos = entry.pointee.pw_gecos.map { String(cString: $0) } ?? ""
        return Account(login: String(cString: entry.pointee.pw_name),
                       fullName: String(gecos.prefix { $0 != "," }),
                       home: String(cString: entry.pointee.pw_dir))
    }

    /// The name to show when none was given: the full name, else the login.
    var defaultName: PersonName? {
        (try? PersonName.parse(fullName).name) ?? (try? PersonName.parse(login).name)
    }
}

import EstimatorKit
import Relay

extension BrokerRefusal {
    /// The sentence `join` shows for the refusal (exit 77), with the fix.
    /// The options it names are `join`'s (`--relay-ca`, not the relay's
    /// `--ca`): a person meets the relay through `join`, which starts it.
    /// `passwordGiven`: whether the environment or a file gave a password;
    /// `caFile`: the CA the certificate was verified with, if not the system's.
    func sentence(address: BrokerAddress, passwordGiven: Bool, caFile: String?) -> String {
        switch self {
        case let .login(why) where passwordGiven:
            "The broker \(address) refused the login (\(why)); check the user name (--relay-user) and the password (ESTIMATOR_RELAY_PASSWORD or --relay-password-file)."
        case let .login(why):
            "The broker \(address) refused the login (\(why)): no password was given; set ESTIMATOR_RELAY_PASSWORD or --relay-password-file FILE."
        case let .untrustedCertificate(host):
            "The certificate of the broker \(address) is not trusted for \(host) by \(caFile.map { "the CA in \(TerminalText.sanitize($0))" } ?? "the system's CAs"); give the broker's CA with --relay-ca FILE."
        case let .other(why):
            "The broker \(address) refused the connection: \(why)."
        }
    }
}

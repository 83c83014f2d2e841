import DBusTestSupport

extension TestBus {
    /// A bus policy that allows everything but calls to `org.bluez`: a
    /// system bus that refuses us bluetoothd, as a real one's policy can.
    public static let policyDenyingBlueZ = policy(denyingSendTo: ["org.bluez"])
}

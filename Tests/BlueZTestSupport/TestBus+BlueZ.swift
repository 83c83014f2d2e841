import DBusTestSupport

extension TestBus {
    /// A bus policy that allows everything but calls to `org.bluez`: a
    /// system bus that refuses us bluetoothd, as a real one's policy can.
    public static let policyDenyingBlueZ = """
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
            <deny send_destination="org.bluez"/>
          </policy>
        """
}

/// Introspection XML for an exported object (`org.freedesktop.DBus.Introspectable`).
enum Introspection {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    static let standardInterfaces = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg name="interface" type="s" direction="in"/><arg name="name" type="s" direction="in"/><arg name="value" type="v" direction="out"/></method>
            <method name="GetAll"><arg name="interface" type="s" direction="in"/><arg name="properties" type="a{sv}" direction="out"/></method>
            <method name="Set"><arg name="interface" type="s" direction="in"/><arg name="name" type="s" direction="in"/><arg name="value" type="v" direction="in"/></method>
            <signal name="PropertiesChanged"><arg name="interface" type="s"/><arg name="changed" type="a{sv}"/><arg name="invalidated" type="as"/></signal>
          </interface>

        """

    /// `interfaces` may be empty (a path that only leads to children).
    static func xml(interfaces: [Interface], children: [String]) -> String {
        var xml = header + "<node>\n"
        if !interfaces.isEmpty { xml += standardInterfaces }
        for interface in interfaces {
            xml += "  <interface name=\"\(interface.name)\">\n"
            for method in interface.methods {
                xml += "    <method name=\"\(method.name)\">"
                xml += arguments(method.input, direction: "in") + arguments(method.output, direction: "out")
                xml += "</method>\n"
            }
            for property in interface.properties {
                let access = property.isWritable ? "readwrite" : "read"
                xml += "    <property name=\"\(property.name)\" type=\"\(property.type.signature)\" access=\"\(access)\"/>\n"
            }
            for signal in interface.signals {
                xml += "    <signal name=\"\(signal.name)\">" + arguments(signal.arguments, direction: nil) + "</signal>\n"
            }
            xml += "  </interface>\n"
        }
        for child in children { xml += "  <node name=\"\(child)\"/>\n" }
        return xml + "</node>\n"
    }

    /// Signature characters are all XML-safe, as are validated names.
    private static func arguments(_ signature: Signature, direction: String?) -> String {
        signature.types.map { type in
            let direction = direction.map { " direction=\"\($0)\"" } ?? ""
            return "<arg type=\"\(type.signature)\"\(direction)/>"
        }.joined()
    }
}

/// How a radio shares its controller between its advertisement and its
/// scan: the part of its schedule that follows from what the controller can
/// do (docs/ARCHITECTURE.md, Radio schedule).
package enum RadioMode: String, Sendable {
    /// Scanning stops around every advertisement change, and every
    /// discovery restart announces the advertisement again. A controller
    /// with legacy advertising refuses the new random address a change
    /// needs while it scans, and Linux keeps its advertising off while it
    /// scans actively, so it is on the air mostly in those gaps.
    case strict
    /// Changes are made while scanning, and a discovery restart leaves the
    /// advertisement alone: an extended advertising set takes its random
    /// address while the controller scans, and keeps it until the next
    /// change, so a phone nearby sees one device, not a new one per restart.
    case light
}

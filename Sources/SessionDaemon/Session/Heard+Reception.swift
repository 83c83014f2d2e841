import Radio
import SessionCore

extension Heard {
    /// What the radio read, as the core takes it: the local name and the
    /// part of its sender's meeting that came with it.
    package init(_ reception: Reception) {
        self.init(localName: reception.localName, rssi: reception.rssi, relayed: reception.relayed,
                  advertiser: reception.advertiser, meeting: reception.part)
    }
}

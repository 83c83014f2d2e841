"""One advertising event as the air carries it."""

from __future__ import annotations

import dataclasses

from bumble import hci, ll


@dataclasses.dataclass(frozen=True)
class AdvertisingEvent(ll.AdvertisingPdu):
    """What one advertising event puts on the air: the advertiser's PDU and,
    when the PDU is scannable, the scan response the advertiser gives every
    active scanner's SCAN_REQ. Carrying the response with the PDU stands in
    for the SCAN_REQ/SCAN_RSP exchange, which on a shared in-process air
    cannot be lost or collide.

    `legacy` says whether the advertiser used legacy PDUs (ADV_IND,
    ADV_SCAN_IND, ADV_NONCONN_IND) or extended ones (ADV_EXT_IND)."""

    advertiser_address: hci.Address
    data: bytes
    scan_response: bytes
    legacy: bool
    connectable: bool
    scannable: bool

    @property
    def legacy_report_type(self) -> int:
        """The LE Advertising Report event type of this PDU (Vol 4, Part E,
        7.7.65.2): ADV_IND when connectable (and so scannable),
        ADV_SCAN_IND when only scannable, ADV_NONCONN_IND otherwise."""
        types = hci.HCI_LE_Advertising_Report_Event.EventType
        if self.connectable:
            return types.ADV_IND
        if self.scannable:
            return types.ADV_SCAN_IND
        return types.ADV_NONCONN_IND

    @property
    def extended_report_type(self) -> int:
        """The LE Extended Advertising Report event type bits of this PDU
        (Vol 4, Part E, 7.7.65.13): the legacy bit for a legacy PDU, so
        the host treats it as ADV_IND/ADV_SCAN_IND/ADV_NONCONN_IND and
        merges its scan response."""
        bits = hci.HCI_LE_Extended_Advertising_Report_Event.EventType
        value = 0
        if self.connectable:
            value |= bits.CONNECTABLE_ADVERTISING
        if self.scannable:
            value |= bits.SCANNABLE_ADVERTISING
        if self.legacy:
            value |= bits.LEGACY_ADVERTISING_PDU_USED
        return value

"""What a scanning controller reports to its host."""

from __future__ import annotations

import dataclasses
from typing import Callable

from bumble import hci

from estimator_air.advertising_event import AdvertisingEvent

# Scan interval and window are in units of 0.625 ms (Vol 4, Part E, 7.8.10).
SCAN_UNIT_S = 0.000625


@dataclasses.dataclass
class Scanner:
    """The scanning state machine of one controller.

    - It listens only within its scan window: `(now - enabled_at) % interval
      < window`. The kernel's discovery scans with window = interval, so it
      always listens; its background (passive) scan does not.
    - An active scanner sends SCAN_REQ to scannable advertisers and reports
      the SCAN_RSP right after the advertising report, so the kernel merges
      the two (hci_event.c, process_adv_report). A passive scanner reports
      the advertising PDU only.
    - Reports use the event the host scanned with: LE Advertising Report
      after LE Set Scan Enable, LE Extended Advertising Report after LE Set
      Extended Scan Enable, with the legacy bit for legacy PDUs.
    - Each report carries the RSSI of the link the event came over
      (estimator_air.links): a peer far off is reported faintly.
    - With duplicate filtering on, an advertising event whose address, PDU
      type, data and scan response were all reported since scanning was
      enabled is not reported again; a changed advertisement is. The Core
      specification leaves open whether changed data counts as a duplicate;
      controllers that report it again are common, and the project's
      session changes its data to change its card.
    """

    clock: Callable[[], float]
    enabled: bool = False
    active: bool = False
    interval_s: float = 0x10 * SCAN_UNIT_S
    window_s: float = 0x10 * SCAN_UNIT_S
    filter_duplicates: bool = False
    extended_reports: bool = False
    enabled_at: float = 0.0
    reported: set = dataclasses.field(default_factory=set)

    def set_parameters(self, active: bool, interval: int, window: int) -> None:
        self.active = active
        self.interval_s = interval * SCAN_UNIT_S
        self.window_s = window * SCAN_UNIT_S

    def enable(self, enabled: bool, filter_duplicates: bool, extended_reports: bool) -> None:
        """Scanning on or off. Enabling starts the window's phase and a new
        duplicate filter, as disabling and enabling a real scanner does."""
        if enabled and not self.enabled:
            self.enabled_at = self.clock()
            self.reported = set()
        self.enabled = enabled
        self.filter_duplicates = filter_duplicates
        self.extended_reports = extended_reports

    def listening(self) -> bool:
        if not self.enabled:
            return False
        if self.window_s >= self.interval_s:
            return True
        return (self.clock() - self.enabled_at) % self.interval_s < self.window_s

    def reports(self, event: AdvertisingEvent, rssi: int) -> list[hci.HCI_Event]:
        """The HCI events this scanner sends its host on hearing `event` at
        `rssi` dBm (its link's, estimator_air.links)."""
        # Legacy scanning (LE Set Scan Enable) hears legacy PDUs only.
        if not self.listening() or (not event.legacy and not self.extended_reports):
            return []
        with_response = self.active and event.scannable
        key = (event.advertiser_address, event.legacy_report_type, event.data,
               event.scan_response if with_response else None)
        if self.filter_duplicates and key in self.reported:
            return []
        self.reported.add(key)
        events = [self._report(event, event.data, scan_response=False, rssi=rssi)]
        if with_response:
            events.append(self._report(event, event.scan_response, scan_response=True, rssi=rssi))
        return events

    def _report(self, event: AdvertisingEvent, data: bytes, scan_response: bool, rssi: int) -> hci.HCI_Event:
        address = event.advertiser_address
        if self.extended_reports:
            event_type = event.extended_report_type
            if scan_response:
                event_type |= hci.HCI_LE_Extended_Advertising_Report_Event.EventType.SCAN_RESPONSE
            return hci.HCI_LE_Extended_Advertising_Report_Event([
                hci.HCI_LE_Extended_Advertising_Report_Event.Report(
                    event_type=event_type,
                    address_type=address.address_type,
                    address=address,
                    primary_phy=hci.Phy.LE_1M,
                    # No secondary channel for a legacy PDU (0x00).
                    secondary_phy=0 if event.legacy else hci.Phy.LE_1M,
                    # 0xFF: no ADI field, as in every legacy PDU.
                    advertising_sid=0xFF if event.legacy else 0,
                    tx_power=0x7F,
                    rssi=rssi,
                    periodic_advertising_interval=0,
                    direct_address_type=0,
                    direct_address=hci.Address.ANY,
                    data=data,
                )
            ])
        report_type = (hci.HCI_LE_Advertising_Report_Event.EventType.SCAN_RSP
                       if scan_response else event.legacy_report_type)
        return hci.HCI_LE_Advertising_Report_Event([
            hci.HCI_LE_Advertising_Report_Event.Report(
                event_type=report_type,
                address_type=address.address_type,
                address=address,
                data=data,
                rssi=rssi,
            )
        ])

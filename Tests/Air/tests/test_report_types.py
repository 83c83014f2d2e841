"""Legacy PDUs are reported as legacy PDUs: LE Advertising Report types
after legacy scanning, the legacy bit in LE Extended Advertising Reports
after extended scanning. Bumble reports every PDU as an extended
connectable one, so the kernel never merges a scan response into its
advertising report and never learns the name."""

import asyncio

from bumble import hci

from support import AirTestCase, advertise_legacy, advertise_set, scan_extended, scan_legacy

ADV = hci.HCI_LE_Set_Advertising_Parameters_Command.AdvertisingType
REPORT = hci.HCI_LE_Advertising_Report_Event.EventType


class ReportTypeTest(AirTestCase):

    def test_legacy_scanning_reports_each_legacy_pdu_type(self):
        for advertising_type, expected in [(ADV.ADV_IND, REPORT.ADV_IND),
                                           (ADV.ADV_SCAN_IND, REPORT.ADV_SCAN_IND),
                                           (ADV.ADV_NONCONN_IND, REPORT.ADV_NONCONN_IND)]:
            with self.subTest(advertising_type=advertising_type):
                async def run():
                    advertiser, scanner = self.make_air(2, extended=False)
                    await scan_legacy(scanner, active=False)
                    await advertise_legacy(advertiser, advertising_type)
                    await asyncio.sleep(0.5)
                    self.assertEqual([t for t, _ in scanner.report_types()], [expected])
                    self.assertTrue(all(kind is hci.HCI_LE_Advertising_Report_Event
                                        for _, kind, _ in scanner.reports()))
                self.run_air(run())

    def test_extended_scanning_sets_the_legacy_bit_for_each_legacy_pdu(self):
        # Event properties with the legacy bit (0x10), as the kernel sets
        # them, and the report type the scanner must give.
        for properties, expected in [(0x13, 0x13), (0x12, 0x12), (0x10, 0x10)]:
            with self.subTest(properties=properties):
                async def run():
                    advertiser, scanner = self.make_air(2)
                    await scan_extended(scanner, active=False)
                    await advertise_set(advertiser, properties)
                    await asyncio.sleep(0.5)
                    self.assertEqual([t for t, _ in scanner.report_types()], [expected])
                self.run_air(run())

    def test_an_extended_pdu_is_heard_by_extended_scanning_only(self):
        async def run():
            advertiser, legacy_scanner, extended_scanner = self.make_air(3)
            await scan_legacy(legacy_scanner, active=False)
            await scan_extended(extended_scanner, active=False)
            await advertise_set(advertiser, 0x00)  # non-connectable, non-scannable, extended
            await asyncio.sleep(0.5)
            self.assertEqual(legacy_scanner.reports(), [])
            self.assertEqual([t for t, _ in extended_scanner.report_types()], [0x00])
        self.run_air(run())

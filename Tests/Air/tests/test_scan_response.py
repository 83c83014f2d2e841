"""A scannable advertiser's scan response reaches active scanners only, and
carries the scan response data (Bumble's "scan response" repeats the
advertising data, to every scanner)."""

import asyncio

from bumble import hci

from support import (FLAGS_AND_UUID, NAME_RESPONSE, AirTestCase, advertise_legacy, advertise_set,
                     scan_extended, scan_legacy)

ADV = hci.HCI_LE_Set_Advertising_Parameters_Command.AdvertisingType
REPORT = hci.HCI_LE_Advertising_Report_Event.EventType


class ScanResponseTest(AirTestCase):

    def test_an_active_scanner_gets_the_scan_response_after_the_advertising_report(self):
        async def run():
            advertiser, scanner = self.make_air(2)
            await scan_legacy(scanner, active=True)
            await advertise_legacy(advertiser, ADV.ADV_IND)
            await asyncio.sleep(0.5)
            self.assertEqual(scanner.report_types(), [(REPORT.ADV_IND, FLAGS_AND_UUID),
                                                      (REPORT.SCAN_RSP, NAME_RESPONSE)])
        self.run_air(run())

    def test_a_passive_scanner_gets_no_scan_response(self):
        async def run():
            advertiser, scanner = self.make_air(2)
            await scan_legacy(scanner, active=False)
            await advertise_legacy(advertiser, ADV.ADV_IND)
            await asyncio.sleep(0.5)
            self.assertEqual(scanner.report_types(), [(REPORT.ADV_IND, FLAGS_AND_UUID)])
        self.run_air(run())

    def test_a_non_scannable_advertiser_gives_no_scan_response(self):
        async def run():
            advertiser, scanner = self.make_air(2)
            await scan_legacy(scanner, active=True)
            await advertise_legacy(advertiser, ADV.ADV_NONCONN_IND)
            await asyncio.sleep(0.5)
            self.assertEqual(scanner.report_types(), [(REPORT.ADV_NONCONN_IND, FLAGS_AND_UUID)])
        self.run_air(run())

    def test_an_extended_scanner_gets_the_scan_response_of_a_legacy_set(self):
        async def run():
            advertiser, scanner = self.make_air(2)
            await scan_extended(scanner, active=True)
            await advertise_set(advertiser, 0x13)  # legacy ADV_IND
            await asyncio.sleep(0.5)
            # 0x13: legacy, scannable, connectable; 0x1B: and scan response.
            self.assertEqual(scanner.report_types(), [(0x13, FLAGS_AND_UUID), (0x1B, NAME_RESPONSE)])
        self.run_air(run())

"""Duplicate filtering and the scan window are honoured (Bumble reports
every PDU it is sent, whatever the host asked)."""

import asyncio

from bumble import hci

from support import AirTestCase, advertise_legacy, scan_legacy

ADV = hci.HCI_LE_Set_Advertising_Parameters_Command.AdvertisingType
REPORT = hci.HCI_LE_Advertising_Report_Event.EventType


class DuplicateFilterTest(AirTestCase):

    def test_an_unchanged_advertiser_is_reported_once_per_scan(self):
        async def run():
            advertiser, filtered, unfiltered = self.make_air(3)
            await scan_legacy(filtered, active=True, filter_duplicates=True)
            await scan_legacy(unfiltered, active=True, filter_duplicates=False)
            await advertise_legacy(advertiser, ADV.ADV_IND)
            await asyncio.sleep(3.5)  # 4 advertising events, 1 s apart
            self.assertEqual(len(unfiltered.report_types()), 8)
            self.assertEqual([t for t, _ in filtered.report_types()], [REPORT.ADV_IND, REPORT.SCAN_RSP])
        self.run_air(run())

    def test_a_changed_scan_response_is_reported_again(self):
        async def run():
            advertiser, scanner = self.make_air(2)
            await scan_legacy(scanner, active=True, filter_duplicates=True)
            await advertise_legacy(advertiser, ADV.ADV_IND)
            await asyncio.sleep(1.5)
            since = len(scanner.events)
            new_name = bytes.fromhex("0409") + b"Bob"
            assert await advertiser.send(hci.HCI_LE_Set_Scan_Response_Data_Command(
                scan_response_data=new_name)) == 0
            await asyncio.sleep(2.0)
            # The pair again, so the host can merge the new response.
            self.assertEqual([t for t, _ in scanner.report_types(since)], [REPORT.ADV_IND, REPORT.SCAN_RSP])
            self.assertEqual(scanner.report_types(since)[1][1], new_name)
        self.run_air(run())

    def test_enabling_the_scan_again_starts_a_new_filter(self):
        async def run():
            advertiser, scanner = self.make_air(2)
            await scan_legacy(scanner, active=False, filter_duplicates=True)
            await advertise_legacy(advertiser, ADV.ADV_IND)
            await asyncio.sleep(1.5)
            assert await scanner.send(hci.HCI_LE_Set_Scan_Enable_Command(le_scan_enable=0, filter_duplicates=0)) == 0
            assert await scanner.send(hci.HCI_LE_Set_Scan_Enable_Command(le_scan_enable=1, filter_duplicates=1)) == 0
            await asyncio.sleep(1.5)
            self.assertEqual([t for t, _ in scanner.report_types()], [REPORT.ADV_IND, REPORT.ADV_IND])
        self.run_air(run())


class ScanWindowTest(AirTestCase):

    def test_a_scanner_hears_only_within_its_window(self):
        async def run():
            advertiser, always, sometimes = self.make_air(3)
            await scan_legacy(always, active=False)
            # 100 ms interval, 25 ms window.
            await scan_legacy(sometimes, active=False, interval=160, window=40)
            enabled_at = asyncio.get_running_loop().time()
            await advertise_legacy(advertiser, ADV.ADV_NONCONN_IND, interval=32)  # every 20 ms + advDelay
            await asyncio.sleep(10)
            heard_always = always.reports()
            heard_sometimes = sometimes.reports()
            self.assertGreater(len(heard_always), 300)
            # A quarter of the time, give or take the events' spacing.
            self.assertLess(len(heard_sometimes), 0.4 * len(heard_always))
            self.assertGreater(len(heard_sometimes), 0.1 * len(heard_always))
            for time, _, _ in heard_sometimes:
                self.assertLess((time - enabled_at) % 0.1, 0.025 + 1e-9)
        self.run_air(run())

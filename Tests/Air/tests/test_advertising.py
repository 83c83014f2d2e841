"""Advertisers send the PDU their parameters ask for and repeat it on their
interval, read in 0.625 ms units, plus the 0-10 ms advDelay (Bumble's
legacy advertiser reads the interval as milliseconds)."""

import asyncio

from bumble import hci

from support import AirTestCase, advertise_legacy, advertise_set, scan_extended, scan_legacy

ADV = hci.HCI_LE_Set_Advertising_Parameters_Command.AdvertisingType
REPORT = hci.HCI_LE_Advertising_Report_Event.EventType


def gaps(times):
    return [later - earlier for earlier, later in zip(times, times[1:])]


class AdvertisingTest(AirTestCase):

    def test_a_legacy_advertiser_repeats_on_its_interval_in_0_625_ms_units(self):
        async def run():
            advertiser, scanner = self.make_air(2, extended=False)
            await scan_legacy(scanner, active=False)
            await advertise_legacy(advertiser, ADV.ADV_SCAN_IND, interval=0x0800)  # 1.28 s
            await asyncio.sleep(12.0)
            times = [time for time, _, _ in scanner.reports()]
            self.assertEqual(len(times), 10)  # at 0, 1.28, ... 11.52 s
            for gap in gaps(times):
                self.assertGreaterEqual(gap, 1.28)
                self.assertLessEqual(gap, 1.29)
            self.assertEqual({t for t, _ in scanner.report_types()}, {REPORT.ADV_SCAN_IND})
        self.run_air(run())

    def test_an_advertising_set_repeats_on_its_interval(self):
        async def run():
            advertiser, scanner = self.make_air(2)
            await scan_extended(scanner, active=False)
            await advertise_set(advertiser, 0x10, interval=160)  # 100 ms
            await asyncio.sleep(2.0)
            times = [time for time, _, _ in scanner.reports()]
            self.assertGreaterEqual(len(times), 19)
            for gap in gaps(times):
                self.assertGreaterEqual(gap, 0.1)
                self.assertLessEqual(gap, 0.11)
        self.run_air(run())

    def test_advertising_disabled_is_silent(self):
        async def run():
            advertiser, scanner = self.make_air(2)
            await scan_legacy(scanner, active=False)
            await advertise_legacy(advertiser, ADV.ADV_IND)
            await asyncio.sleep(0.5)
            assert await advertiser.send(hci.HCI_LE_Set_Advertising_Enable_Command(advertising_enable=0)) == 0
            since = len(scanner.events)
            await asyncio.sleep(3.0)
            self.assertEqual(scanner.reports(since), [])
        self.run_air(run())

    def test_reset_stops_advertising_and_scanning(self):
        async def run():
            advertiser, scanner = self.make_air(2)
            await scan_extended(scanner, active=False)
            await advertise_set(advertiser, 0x10)
            await asyncio.sleep(0.5)
            assert await advertiser.send(hci.HCI_Reset_Command()) == 0
            assert await scanner.send(hci.HCI_Reset_Command()) == 0
            since = len(scanner.events)
            await scan_extended(scanner, active=False)
            await asyncio.sleep(3.0)
            self.assertEqual(scanner.reports(since), [])
            self.assertEqual(advertiser.controller.advertising_sets, {})
        self.run_air(run())

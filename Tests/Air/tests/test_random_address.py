"""LE Set Random Address is refused while scanning or legacy advertising
(Vol 4, Part E, 7.8.4: Command Disallowed); Bumble accepts it."""


from bumble import hci

from support import AirTestCase, advertise_legacy, advertise_set, scan_extended, scan_legacy

DISALLOWED = hci.HCI_ErrorCode.COMMAND_DISALLOWED_ERROR
ADDRESS = hci.Address("C2:00:00:00:00:01", hci.Address.RANDOM_DEVICE_ADDRESS)


def set_random_address():
    return hci.HCI_LE_Set_Random_Address_Command(random_address=ADDRESS)


class RandomAddressTest(AirTestCase):

    def test_refused_while_scanning_accepted_once_the_scan_stops(self):
        async def run():
            (host,) = self.make_air(1, extended=False)
            self.assertEqual(await host.send(set_random_address()), 0)
            await scan_legacy(host, active=True)
            self.assertEqual(await host.send(set_random_address()), DISALLOWED)
            assert await host.send(hci.HCI_LE_Set_Scan_Enable_Command(le_scan_enable=0, filter_duplicates=0)) == 0
            self.assertEqual(await host.send(set_random_address()), 0)
            self.assertEqual(host.controller.random_address, ADDRESS)
        self.run_air(run())

    def test_refused_while_legacy_advertising(self):
        async def run():
            (host,) = self.make_air(1, extended=False)
            await advertise_legacy(host, hci.HCI_LE_Set_Advertising_Parameters_Command.AdvertisingType.ADV_IND)
            self.assertEqual(await host.send(set_random_address()), DISALLOWED)
        self.run_air(run())

    def test_an_advertising_sets_own_address_may_change_while_scanning(self):
        async def run():
            (host,) = self.make_air(1)
            await scan_extended(host, active=True)
            await advertise_set(host, 0x13)
            self.assertEqual(await host.send(hci.HCI_LE_Set_Advertising_Set_Random_Address_Command(
                advertising_handle=2, random_address=ADDRESS)), 0)
            self.assertEqual(await host.send(set_random_address()), DISALLOWED)
        self.run_air(run())

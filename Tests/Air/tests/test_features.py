"""An extended controller claims the extended advertising feature and both
the extended advertising and scanning commands, so the kernel uses them
together; a legacy one (--legacy) claims none of them. Bumble claims the
feature but not the extended scan commands, so the kernel mixes extended
advertising with legacy scanning, which the specification forbids."""

from bumble import hci

from support import AirTestCase


def supported(host, opcode) -> bool:
    commands = host.controller.on_hci_read_local_supported_commands_command(None).supported_commands
    mask = hci.HCI_SUPPORTED_COMMANDS_MASKS[opcode]
    return bool(int.from_bytes(commands, "little") & mask)


def extended_advertising(host) -> bool:
    features = host.controller.on_hci_le_read_local_supported_features_command(None).le_features
    return bool(int.from_bytes(features, "little") & hci.LeFeatureMask.LE_EXTENDED_ADVERTISING)


class FeaturesTest(AirTestCase):

    def test_an_extended_controller_claims_extended_advertising_and_scanning(self):
        async def run():
            (host,) = self.make_air(1)
            self.assertTrue(extended_advertising(host))
            self.assertTrue(supported(host, hci.HCI_LE_SET_EXTENDED_ADVERTISING_PARAMETERS_COMMAND))
            self.assertTrue(supported(host, hci.HCI_LE_SET_EXTENDED_SCAN_PARAMETERS_COMMAND))
            self.assertTrue(supported(host, hci.HCI_LE_SET_EXTENDED_SCAN_ENABLE_COMMAND))
        self.run_air(run())

    def test_a_legacy_controller_claims_neither(self):
        async def run():
            (host,) = self.make_air(1, extended=False)
            self.assertFalse(extended_advertising(host))
            self.assertFalse(supported(host, hci.HCI_LE_SET_EXTENDED_ADVERTISING_PARAMETERS_COMMAND))
            self.assertFalse(supported(host, hci.HCI_LE_SET_EXTENDED_SCAN_ENABLE_COMMAND))
            self.assertTrue(supported(host, hci.HCI_LE_SET_SCAN_ENABLE_COMMAND))
        self.run_air(run())

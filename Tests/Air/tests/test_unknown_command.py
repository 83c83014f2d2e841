"""Every command gets a reply: Unknown HCI Command for those the model does
not implement (Bumble sends nothing for them, and the host waits out its
command timeout)."""


from bumble import hci

from support import AirTestCase

UNKNOWN = hci.HCI_ErrorCode.UNKNOWN_HCI_COMMAND_ERROR


class UnknownCommandTest(AirTestCase):

    def test_a_vendor_command_is_answered_unknown(self):
        async def run():
            (host,) = self.make_air(1)
            vendor = hci.HCI_Command.from_bytes(bytes([0x01, 0x99, 0xFC, 0x00]))
            self.assertEqual(await host.send(vendor), UNKNOWN)
        self.run_air(run())

    def test_a_known_command_without_a_handler_gets_command_status_unknown(self):
        async def run():
            (host,) = self.make_air(1)
            inquiry = hci.HCI_Inquiry_Command(lap=0x9E8B33, inquiry_length=8, num_responses=0)
            self.assertEqual(await host.send(inquiry), UNKNOWN)
            self.assertIsInstance(host.events[-1], hci.HCI_Command_Status_Event)
        self.run_air(run())

    def test_an_implemented_command_still_succeeds(self):
        async def run():
            (host,) = self.make_air(1)
            self.assertEqual(await host.send(hci.HCI_Reset_Command()), 0)
        self.run_air(run())

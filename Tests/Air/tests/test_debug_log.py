"""Packets to and from the host are formatted for Bumble's debug log only
when that log is on: formatting them all is the largest share of the
model's time in the guest (docs/MEASUREMENTS.md, The guest's CPU)."""

import logging
from unittest import mock

from bumble import controller as bumble_controller
from bumble import hci

from support import AirTestCase


class DebugLogTest(AirTestCase):

    def exchange(self, level):
        """Sends a command with Bumble's controller log at `level`; returns
        the reply's status and each packet text formatted meanwhile."""
        bumble_controller.logger.setLevel(level)
        self.addCleanup(bumble_controller.logger.setLevel, logging.NOTSET)
        formatted, statuses = [], []

        def formatting(packet):
            formatted.append(str(packet))
            return str(packet)

        async def run():
            (host,) = self.make_air(1)
            # Bumble's log lines name each packet through its `color`.
            with mock.patch.object(bumble_controller, "color", lambda text, _: formatting(text)):
                statuses.append(await host.send(hci.HCI_Reset_Command()))
        self.run_air(run())
        return statuses, formatted

    def test_no_packet_is_formatted_while_the_debug_log_is_off(self):
        status, formatted = self.exchange(logging.INFO)
        self.assertEqual(status, [0])
        self.assertEqual(formatted, [])

    def test_the_debug_log_still_shows_each_packet(self):
        with self.assertLogs(bumble_controller.logger, logging.DEBUG) as log:
            status, formatted = self.exchange(logging.DEBUG)
        self.assertEqual(status, [0])
        self.assertIn("HOST -> CONTROLLER", formatted)
        self.assertIn("CONTROLLER -> HOST", formatted)
        self.assertIn("HCI_RESET_COMMAND", log.output[0])
        self.assertIn("HCI_COMMAND_COMPLETE_EVENT", log.output[1])

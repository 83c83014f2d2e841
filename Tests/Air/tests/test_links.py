"""Partial hearing: with `--link I-J=RSSI` a pair hears each other at that
RSSI, with `--link I-J=none` not at all, and every other pair at -50 dBm,
so a scenario can put a peer at the far end of a room, heard by one laptop
only and faintly."""

import asyncio
import contextlib
import io
import unittest

from bumble import hci, ll

from estimator_air.__main__ import parse_arguments
from support import (FLAGS_AND_UUID, RANDOM, AirTestCase, Host, advertise_legacy, advertise_set,
                     scan_extended, scan_legacy)

ADV = hci.HCI_LE_Set_Advertising_Parameters_Command.AdvertisingType
EXTENDED = hci.HCI_LE_Extended_Advertising_Report_Event.EventType

# Controller 2 is the peer at the far end of the room: 1 hears it faintly,
# 0 not at all. 0 and 1 are not named, so they hear each other at -50.
FAR_PEER = ["0-2=none", "1-2=-88"]


def heard(scanner: Host) -> dict[str, set[int]]:
    """Per advertiser's address, the RSSIs the scanner reported it at."""
    found: dict[str, set[int]] = {}
    for _, _, report in scanner.reports():
        found.setdefault(report.address.to_string(False), set()).add(report.rssi)
    return found


def address(host: Host) -> str:
    return host.controller.public_address.to_string(False)


class LinksTest(AirTestCase):

    def test_a_faint_link_sets_the_rssi_of_legacy_reports(self):
        async def run():
            near, far_listener, peer = self.make_air(3, extended=False, links=FAR_PEER)
            await scan_legacy(far_listener, active=True)
            await advertise_legacy(peer, ADV.ADV_IND)
            await asyncio.sleep(3.0)
            reports = far_listener.reports()
            # The advertising report and its scan response, every interval.
            self.assertGreaterEqual(len(reports), 6)
            self.assertEqual({kind for _, kind, _ in reports}, {hci.HCI_LE_Advertising_Report_Event})
            self.assertEqual(heard(far_listener), {address(peer): {-88}})
        self.run_air(run())

    def test_a_faint_link_sets_the_rssi_of_extended_reports(self):
        async def run():
            near, far_listener, peer = self.make_air(3, links=FAR_PEER)
            await scan_extended(far_listener, active=True)
            await advertise_set(peer, 0x13, handle=1)  # legacy ADV_IND
            await advertise_set(peer, 0x00, handle=2)  # extended, non-connectable
            await asyncio.sleep(3.0)
            reports = far_listener.reports()
            self.assertEqual({kind for _, kind, _ in reports}, {hci.HCI_LE_Extended_Advertising_Report_Event})
            legacy_bits = {bool(report.event_type & EXTENDED.LEGACY_ADVERTISING_PDU_USED)
                           for _, _, report in reports}
            self.assertEqual(legacy_bits, {True, False})
            self.assertEqual(heard(far_listener), {RANDOM.to_string(False): {-88}})
        self.run_air(run())

    def test_a_pair_linked_none_hear_nothing_of_each_other(self):
        near, far_listener, peer = self.far_peer_heard()
        self.assertNotIn(address(peer), heard(near))
        self.assertNotIn(address(near), heard(peer))
        # Each still hears the one it is linked to.
        self.assertIn(address(far_listener), heard(near))
        self.assertIn(address(far_listener), heard(peer))

    def test_links_are_symmetric(self):
        near, far_listener, peer = self.far_peer_heard()
        self.assertEqual(heard(far_listener)[address(peer)], {-88})
        self.assertEqual(heard(peer)[address(far_listener)], {-88})

    def test_a_pair_no_link_names_hears_each_other_at_minus_50(self):
        near, far_listener, peer = self.far_peer_heard()
        self.assertEqual(heard(near)[address(far_listener)], {-50})
        self.assertEqual(heard(far_listener)[address(near)], {-50})

    def test_bumbles_own_pdus_follow_the_links_too(self):
        # A PDU that is not the model's AdvertisingEvent goes to Bumble's
        # handler (as CONNECT_IND does), only where the links say it is heard.
        async def run():
            near, far_listener, peer = self.make_air(3, extended=False, links=FAR_PEER)
            await scan_legacy(near, active=False)
            await scan_legacy(far_listener, active=False)
            peer.controller.send_advertising_pdu(
                ll.AdvInd(advertiser_address=peer.controller.public_address, data=FLAGS_AND_UUID))
            await asyncio.sleep(0.1)
            self.assertIn(address(peer), heard(far_listener))
            self.assertEqual(near.reports(), [])
        self.run_air(run())

    def far_peer_heard(self) -> list[Host]:
        """The air of FAR_PEER once everyone has advertised and scanned:
        near, far_listener, peer."""
        hosts: list[Host] = []

        async def run():
            hosts.extend(self.make_air(3, extended=False, links=FAR_PEER))
            await self.everyone_advertises_and_scans(hosts)
        self.run_air(run())
        return hosts

    async def everyone_advertises_and_scans(self, hosts: list[Host]) -> None:
        for host in hosts:
            await scan_legacy(host, active=False)
        for host in hosts:
            await advertise_legacy(host, ADV.ADV_NONCONN_IND)
        await asyncio.sleep(3.0)


class LinkOptionTest(unittest.TestCase):
    """`--link` as `python -m estimator_air` reads it."""

    def refused(self, *links: str, transports: int = 3) -> str:
        """What the parser says on refusing `links`; fails unless it exits
        with status 2, argparse's usage error."""
        argv = [arg for link in links for arg in ("--link", link)] + ["vhci"] * transports
        error = io.StringIO()
        with contextlib.redirect_stderr(error), self.assertRaises(SystemExit) as exit:
            parse_arguments(argv)
        self.assertEqual(exit.exception.code, 2)
        return error.getvalue()

    def test_it_takes_links_and_leaves_other_pairs_at_minus_50(self):
        links = parse_arguments(["--link", "0-2=none", "--link", "1-2=-88", "vhci", "vhci", "vhci"]).links
        self.assertIsNone(links.rssi(0, 2))
        self.assertIsNone(links.rssi(2, 0))
        self.assertEqual(links.rssi(2, 1), -88)
        self.assertEqual(links.rssi(0, 1), -50)

    def test_it_refuses_a_controller_linked_to_itself(self):
        self.assertIn("'0-0=-50' links controller 0 to itself.", self.refused("0-0=-50"))

    def test_it_refuses_an_index_out_of_range_for_the_transports(self):
        self.assertIn("'0-9=-50' names controller 9, but 3 transports make controllers 0 to 2.",
                      self.refused("0-9=-50"))
        self.assertIn("controller 3", self.refused("3-0=none"))

    def test_it_refuses_an_rssi_that_is_not_an_integer_or_none(self):
        for link in ("0-1=loud", "0-1=-88.5", "0-1=", "0-1=None"):
            with self.subTest(link=link):
                self.assertIn(f"'{link}': the RSSI must be an integer from -127 to 20 dBm, or none.",
                              self.refused(link))

    def test_it_refuses_an_rssi_out_of_the_reports_range(self):
        for link in ("0-1=-128", "0-1=21"):
            with self.subTest(link=link):
                self.assertIn("the RSSI must be an integer from -127 to 20 dBm", self.refused(link))
        parse_arguments(["--link", "0-1=-127", "--link", "1-2=20", "vhci", "vhci", "vhci"])

    def test_it_refuses_a_link_that_is_not_i_j_equals_rssi(self):
        for link in ("0=-50", "0-1", "a-1=-50", "0-1-2=-50"):
            with self.subTest(link=link):
                self.assertIn(f"'{link}' is not I-J=RSSI or I-J=none", self.refused(link))

    def test_it_refuses_a_pair_named_twice(self):
        self.assertIn("'1-0=-70' names the pair 1-0 a second time.", self.refused("0-1=-60", "1-0=-70"))

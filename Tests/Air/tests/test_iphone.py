"""The iPhone model (estimator_air.iphone) on the corrected air, as a
scanner hears it: a connectable advertisement, discoverable, the service
UUID and the packet cut to an 8-byte shortened name in the advertising
data, nothing in the scan response, from a resolvable-looking random
address that changes on demand and only then."""

import asyncio
import random

from bumble import hci

from estimator_air.iphone import SERVICE_UUID, IPhone, advertising_data
from support import AirTestCase, Host, scan_legacy

REPORT = hci.HCI_LE_Advertising_Report_Event.EventType


def iphone(host: Host, packet: bytes, seed: int) -> IPhone:
    """The iPhone model on `host`'s controller: its command packets parsed
    as Bumble's commands, so each is also checked to be the one meant."""
    async def send(packet: bytes) -> int:
        return await host.send(hci.HCI_Packet.from_bytes(packet))
    return IPhone(send, packet, rng=random.Random(seed))


def ad_structures(data: bytes) -> dict[int, bytes]:
    """AD type -> value of each AD structure in `data`."""
    found, i = {}, 0
    while i < len(data):
        length = data[i]
        found[data[i + 1]] = data[i + 2:i + 1 + length]
        i += 1 + length
    return found


class IPhoneTest(AirTestCase):

    def test_the_advertising_data_is_the_flags_the_uuid_and_8_bytes_of_the_packet(self):
        data = advertising_data("0100FE전수열".encode())
        self.assertEqual(len(data), 31, "all of a legacy advertisement's data")
        self.assertEqual(ad_structures(data), {
            0x01: bytes([0x1A]),
            0x07: SERVICE_UUID,
            0x08: b"0100FE" + bytes([0xEC, 0xA0]),
        })
        self.assertEqual(SERVICE_UUID.hex(), "7625fd09e3076b9f084ef809fd6733fb")
        self.assertEqual(ad_structures(advertising_data(b"0100DA"))[0x08], b"0100DA", "a short packet whole")

    def test_a_scanner_hears_a_connectable_discoverable_iphone_from_a_resolvable_looking_address(self):
        async def run():
            phone_host, scanner = self.make_air(2, extended=False)
            phone = iphone(phone_host, b"010008Alice", 1)
            await scan_legacy(scanner, active=True)
            await phone.start()
            await asyncio.sleep(1)
            reports = scanner.reports()
            self.assertEqual({report.event_type for _, _, report in reports}, {REPORT.ADV_IND, REPORT.SCAN_RSP})
            advertising = [r for _, _, r in reports if r.event_type == REPORT.ADV_IND]
            self.assertGreaterEqual(len(advertising), 6, "repeated every 152.5 ms")
            self.assertTrue(all(bytes(r.data) == advertising_data(b"010008Al") for r in advertising))
            self.assertTrue(all(bytes(r.data) == b"" for _, _, r in reports if r.event_type == REPORT.SCAN_RSP))
            addresses = {(r.address.to_string(False), r.address_type) for _, _, r in reports}
            self.assertEqual(addresses, {(phone.address, hci.Address.RANDOM_DEVICE_ADDRESS)})
            self.assertEqual(int(phone.address[:2], 16) >> 6, 0b01, "resolvable-looking")
        self.run_air(run())

    def test_a_new_address_on_demand_and_a_new_card_from_the_same_address(self):
        async def run():
            phone_host, scanner = self.make_air(2, extended=False)
            phone = iphone(phone_host, b"010008Alice", 2)
            await scan_legacy(scanner, active=False)
            await phone.start()
            await asyncio.sleep(1)
            first = phone.address
            since = len(scanner.events)
            moved = await phone.new_address()
            await asyncio.sleep(1)
            self.assertNotEqual(moved, first)
            self.assertEqual(int(moved[:2], 16) >> 6, 0b01)
            self.assertEqual({r.address.to_string(False) for _, _, r in scanner.reports(since)}, {moved})
            since = len(scanner.events)
            await phone.send_packet(b"010003Alice")
            await asyncio.sleep(1)
            self.assertEqual({(r.address.to_string(False), bytes(r.data)) for _, _, r in scanner.reports(since)},
                             {(moved, advertising_data(b"010003Al"))})
        self.run_air(run())

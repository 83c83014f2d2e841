"""What the tests drive the corrected controllers with: an event loop on a
virtual clock, and a host that sends HCI commands and keeps every event."""

from __future__ import annotations

import asyncio
import random
import selectors
import unittest

from bumble import hci

from estimator_air.air import public_address
from estimator_air.controller import AirController
from estimator_air.links import Links, PartialLink
from estimator_air.path_loss import PathLoss


class _VirtualSelector(selectors.SelectSelector):
    """Never sleeps: where the loop would wait for its next timer, the
    virtual clock jumps to it."""

    def __init__(self, loop: "VirtualTimeLoop") -> None:
        super().__init__()
        self._loop = loop

    def select(self, timeout=None):
        ready = super().select(0)
        if ready or timeout == 0:
            return ready
        if timeout is None:
            raise RuntimeError("nothing is scheduled: the test would wait forever")
        self._loop.now += timeout
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop whose time() is a virtual clock driven by its timers."""

    def __init__(self) -> None:
        self.now = 0.0
        super().__init__(_VirtualSelector(self))

    def time(self) -> float:
        return self.now


class Host:
    """The host side of one controller: commands in, events kept in order."""

    def __init__(self) -> None:
        self.events: list[hci.HCI_Event] = []
        self.times: list[float] = []
        self.controller: AirController | None = None

    def on_packet(self, packet: bytes) -> None:
        self.events.append(hci.HCI_Packet.from_bytes(packet))
        self.times.append(asyncio.get_running_loop().time())

    async def send(self, command: hci.HCI_Command) -> int:
        """Sends `command`; returns the status of its Command Complete or
        Command Status."""
        before = len(self.events)
        self.controller.on_packet(bytes(command))
        await asyncio.sleep(0)
        for event in self.events[before:]:
            if isinstance(event, hci.HCI_Command_Complete_Event) and event.command_opcode == command.op_code:
                return_parameters = event.return_parameters
                return return_parameters.status if hasattr(return_parameters, "status") else return_parameters.data[0]
            if isinstance(event, hci.HCI_Command_Status_Event) and event.command_opcode == command.op_code:
                return event.status
        raise AssertionError(f"no reply to {command.name}")

    def reports(self, since: int = 0) -> list:
        """(time, event class, report) of every advertising report since event `since`."""
        found = []
        for time, event in zip(self.times[since:], self.events[since:]):
            if isinstance(event, (hci.HCI_LE_Advertising_Report_Event,
                                  hci.HCI_LE_Extended_Advertising_Report_Event)):
                found.extend((time, type(event), report) for report in event.reports)
        return found

    def report_types(self, since: int = 0) -> list[tuple[int, bytes]]:
        """(event type, data) of every advertising report since event `since`."""
        return [(report.event_type, bytes(report.data)) for _, _, report in self.reports(since)]


class AirTestCase(unittest.TestCase):
    """Each test runs in a virtual-time loop; `make_air(n)`, called inside it,
    gives n hosts whose controllers share one air, where each hears every
    other unless `links` (in `--link` form, e.g. "1-2=-88") or `path_loss`
    says otherwise."""

    def setUp(self) -> None:
        self.loop = VirtualTimeLoop()
        asyncio.set_event_loop(self.loop)

    def tearDown(self) -> None:
        self.loop.close()
        asyncio.set_event_loop(None)

    def run_air(self, coroutine) -> None:
        self.loop.run_until_complete(coroutine)

    def make_air(self, count: int, extended: bool = True, links: list[str] = (),
                 path_loss: PathLoss | None = None) -> list[Host]:
        link = PartialLink(Links.parse(links, controllers=count, path_loss=path_loss))
        hosts = []
        for index in range(count):
            host = Host()
            host.controller = AirController(f"C{index}", host_sink=host, link=link,
                                            public_address=public_address(index), extended=extended,
                                            rng=random.Random(index))
            hosts.append(host)
        return hosts


ADV_INTERVAL_1S = 1600  # 1 s in 0.625 ms units
RANDOM = hci.Address("C1:22:33:44:55:66", hci.Address.RANDOM_DEVICE_ADDRESS)
FLAGS_AND_UUID = bytes.fromhex("020106") + bytes.fromhex("030302fe")
NAME_RESPONSE = bytes.fromhex("0609") + b"Alice"


def legacy_advertising_parameters(advertising_type: int, interval: int = ADV_INTERVAL_1S) -> hci.HCI_Command:
    return hci.HCI_LE_Set_Advertising_Parameters_Command(
        advertising_interval_min=interval, advertising_interval_max=interval,
        advertising_type=advertising_type, own_address_type=hci.Address.PUBLIC_DEVICE_ADDRESS,
        peer_address_type=0, peer_address=hci.Address.ANY, advertising_channel_map=7,
        advertising_filter_policy=0)


async def advertise_legacy(host: Host, advertising_type: int, interval: int = ADV_INTERVAL_1S) -> None:
    """Legacy advertising from the host's public address, data and scan response set."""
    assert await host.send(legacy_advertising_parameters(advertising_type, interval)) == 0
    assert await host.send(hci.HCI_LE_Set_Advertising_Data_Command(advertising_data=FLAGS_AND_UUID)) == 0
    assert await host.send(hci.HCI_LE_Set_Scan_Response_Data_Command(scan_response_data=NAME_RESPONSE)) == 0
    assert await host.send(hci.HCI_LE_Set_Advertising_Enable_Command(advertising_enable=1)) == 0


async def scan_legacy(host: Host, active: bool, filter_duplicates: bool = False,
                      interval: int = 0x12, window: int = 0x12) -> None:
    assert await host.send(hci.HCI_LE_Set_Scan_Parameters_Command(
        le_scan_type=int(active), le_scan_interval=interval, le_scan_window=window,
        own_address_type=hci.Address.PUBLIC_DEVICE_ADDRESS, scanning_filter_policy=0)) == 0
    assert await host.send(hci.HCI_LE_Set_Scan_Enable_Command(
        le_scan_enable=1, filter_duplicates=int(filter_duplicates))) == 0


async def scan_extended(host: Host, active: bool, filter_duplicates: bool = False) -> None:
    assert await host.send(hci.HCI_LE_Set_Extended_Scan_Parameters_Command(
        own_address_type=hci.Address.PUBLIC_DEVICE_ADDRESS, scanning_filter_policy=0, scanning_phys=1,
        scan_types=[int(active)], scan_intervals=[0x12], scan_windows=[0x12])) == 0
    assert await host.send(hci.HCI_LE_Set_Extended_Scan_Enable_Command(
        enable=1, filter_duplicates=int(filter_duplicates), duration=0, period=0)) == 0


async def advertise_set(host: Host, properties: int, interval: int = ADV_INTERVAL_1S, handle: int = 1) -> None:
    """An extended advertising set from a random address, as the kernel makes one."""
    assert await host.send(hci.HCI_LE_Set_Extended_Advertising_Parameters_Command(
        advertising_handle=handle, advertising_event_properties=properties,
        primary_advertising_interval_min=interval, primary_advertising_interval_max=interval,
        primary_advertising_channel_map=7, own_address_type=hci.Address.RANDOM_DEVICE_ADDRESS,
        peer_address_type=0, peer_address=hci.Address.ANY, advertising_filter_policy=0,
        advertising_tx_power=0x7F, primary_advertising_phy=1, secondary_advertising_max_skip=0,
        secondary_advertising_phy=1, advertising_sid=0, scan_request_notification_enable=0)) == 0
    assert await host.send(hci.HCI_LE_Set_Advertising_Set_Random_Address_Command(
        advertising_handle=handle, random_address=RANDOM)) == 0
    complete = hci.HCI_LE_Set_Extended_Advertising_Data_Command.Operation.COMPLETE_DATA
    assert await host.send(hci.HCI_LE_Set_Extended_Advertising_Data_Command(
        advertising_handle=handle, operation=complete, fragment_preference=1,
        advertising_data=FLAGS_AND_UUID)) == 0
    assert await host.send(hci.HCI_LE_Set_Extended_Scan_Response_Data_Command(
        advertising_handle=handle, operation=complete, fragment_preference=1,
        scan_response_data=NAME_RESPONSE)) == 0
    assert await host.send(hci.HCI_LE_Set_Extended_Advertising_Enable_Command(
        enable=1, advertising_handles=[handle], durations=[0], max_extended_advertising_events=[0])) == 0

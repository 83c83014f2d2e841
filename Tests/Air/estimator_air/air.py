"""One air with one corrected controller per HCI transport."""

from __future__ import annotations

import os

from bumble import hci
from bumble.transport import open_transport
from bumble.transport.common import Transport

from estimator_air.controller import AirController
from estimator_air.links import Links, PartialLink


def public_address(index: int) -> hci.Address:
    """A public address unique to this process and controller: 00:BB, the
    process id, the controller's index. Apart from btvirt's 00:AA:01."""
    pid = os.getpid() & 0xFFFF
    octets = (0x00, 0xBB, pid >> 8, pid & 0xFF, index >> 8, index & 0xFF)
    return hci.Address(":".join(f"{o:02X}" for o in octets), hci.Address.PUBLIC_DEVICE_ADDRESS)


class Air:
    """Controllers that hear each other as `links` says (by default each
    hears every other at DEFAULT_RSSI; placed ones, by its path-loss model):
    a PartialLink delivers each advertising PDU to the controllers that hear
    its sender, each with the RSSI of its report."""

    def __init__(self, extended: bool = True, links: Links | None = None) -> None:
        self.link = PartialLink(links)
        self.extended = extended
        self.controllers: list[AirController] = []
        self.transports: list[Transport] = []

    async def attach(self, transport_name: str) -> AirController:
        """Opens a Bumble transport (`vhci`, `unix-server:PATH`,
        `tcp-server:HOST:PORT`, `serial:PATH`, ...) and puts a controller
        behind it."""
        transport = await open_transport(transport_name)
        self.transports.append(transport)
        index = len(self.controllers)
        controller = AirController(
            f"C{index}", host_source=transport.source, host_sink=transport.sink, link=self.link,
            public_address=public_address(index), extended=self.extended)
        self.controllers.append(controller)
        return controller

    async def close(self) -> None:
        for transport in self.transports:
            await transport.close()

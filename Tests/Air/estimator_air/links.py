"""Who hears whom on the air, and how loudly: partial hearing, so a
scenario can put a peer at the far end of a room, heard by one laptop only
and faintly, or place laptops on a floor plan (estimator_air.path_loss)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from typing import Iterable

from bumble.link import LocalLink

from estimator_air.path_loss import RSSI_MAX, RSSI_MIN, PathLoss

# Received signal strength of a pair neither a link names nor the path-loss
# model places: for them the air has no distance.
DEFAULT_RSSI = -50

_LINK = re.compile(r"(\d+)-(\d+)=(.*)")
_INTEGER = re.compile(r"[-+]?\d+")


@dataclasses.dataclass(frozen=True)
class Link:
    """How controllers `first` and `second` (indexes in transport order)
    hear each other: at `rssi` dBm, or not at all when `rssi` is None.
    Hearing is symmetric."""

    first: int
    second: int
    rssi: int | None

    @classmethod
    def parse(cls, text: str) -> Link:
        """`I-J=RSSI` (an integer in dBm, e.g. `1-2=-88`) or `I-J=none`.
        Raises ValueError with one sentence saying what is wrong."""
        match = _LINK.fullmatch(text)
        if match is None:
            raise ValueError(f"'{text}' is not I-J=RSSI or I-J=none, with I and J controller indexes.")
        first, second, value = int(match[1]), int(match[2]), match[3]
        if first == second:
            raise ValueError(f"'{text}' links controller {first} to itself.")
        if value == "none":
            return cls(first, second, None)
        if _INTEGER.fullmatch(value) is None or not RSSI_MIN <= int(value) <= RSSI_MAX:
            raise ValueError(f"'{text}': the RSSI must be an integer from {RSSI_MIN} to {RSSI_MAX} dBm, "
                             f"or none.")
        return cls(first, second, int(value))

    def __str__(self) -> str:
        return f"{self.first}-{self.second}={'none' if self.rssi is None else self.rssi}"


class Links:
    """The link map of one air: a pair one of `links` names hears each
    other as it says; a pair `path_loss` places both of, as its model says,
    report by report; every other pair at DEFAULT_RSSI.

    `controllers`, when given, is how many controllers the air has: a link
    naming another is an error, as is a pair named twice (in either
    order), since the map could not say which one holds. Both raise
    ValueError with one sentence."""

    def __init__(self, links: Iterable[Link] = (), controllers: int | None = None,
                 path_loss: PathLoss | None = None) -> None:
        self.path_loss = path_loss if path_loss is not None else PathLoss()
        self._rssi: dict[frozenset[int], int | None] = {}
        for link in links:
            if controllers is not None and max(link.first, link.second) >= controllers:
                raise ValueError(f"'{link}' names controller {max(link.first, link.second)}, "
                                 f"but {controllers} transports make controllers 0 to {controllers - 1}.")
            pair = frozenset((link.first, link.second))
            if pair in self._rssi:
                raise ValueError(f"'{link}' names the pair {link.first}-{link.second} a second time.")
            self._rssi[pair] = link.rssi

    @classmethod
    def parse(cls, texts: Iterable[str], controllers: int | None = None,
              path_loss: PathLoss | None = None) -> Links:
        """Links from their command-line form (Link.parse)."""
        return cls((Link.parse(text) for text in texts), controllers, path_loss)

    def rssi(self, sender: int, receiver: int) -> int | None:
        """The RSSI of one report `receiver` makes of an advertising event of
        `sender`, or None when it does not hear it. Only the path-loss
        model's pairs differ from one report to the next."""
        pair = frozenset((sender, receiver))
        if pair in self._rssi:
            return self._rssi[pair]
        if self.path_loss.placed(sender, receiver):
            return self.path_loss.report(sender, receiver)
        return DEFAULT_RSSI


class PartialLink(LocalLink):
    """Bumble's LocalLink delivering an advertising PDU only to the
    controllers that hear its sender, as `links` says, and handing each the
    RSSI of its report, drawn anew for each PDU:
    `on_ll_advertising_pdu(packet, rssi)`, which AirController takes.
    Every advertising PDU goes through it, CONNECT_IND
    too, so a controller that cannot hear an advertiser cannot connect to
    it either.

    Links name controllers by index in transport order; the link numbers
    its controllers in the order they join it, which is the order the air
    makes them in."""

    def __init__(self, links: Links | None = None) -> None:
        super().__init__()
        self.links = links if links is not None else Links()
        # A list, not LocalLink's set: its order is the controllers' indexes.
        self.joined: list = []

    def add_controller(self, controller) -> None:
        super().add_controller(controller)
        self.joined.append(controller)

    def remove_controller(self, controller) -> None:
        super().remove_controller(controller)
        # The others keep their indexes: the link map was given for them.
        self.joined[self.joined.index(controller)] = None

    def send_advertising_pdu(self, sender_controller, packet) -> None:
        loop = asyncio.get_running_loop()
        sender = self.joined.index(sender_controller)
        for index, receiver in enumerate(self.joined):
            if receiver is None or index == sender:
                continue
            rssi = self.links.rssi(sender, index)
            if rssi is not None:
                loop.call_soon(receiver.on_ll_advertising_pdu, packet, rssi)

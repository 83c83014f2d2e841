"""Advertising through the extended commands: one set per handle."""

from __future__ import annotations

import dataclasses
import random

from bumble import hci
from bumble.controller import AdvertisingSet

from estimator_air.advertising_event import AdvertisingEvent
from estimator_air.legacy_advertiser import INTERVAL_UNIT_S
from estimator_air.repeater import Repeater, RepeatingAdvertiser

_PROPERTIES = hci.HCI_LE_Set_Extended_Advertising_Parameters_Command.AdvertisingProperties


@dataclasses.dataclass
class AdvertisingSetOnAir(RepeatingAdvertiser, AdvertisingSet):
    """Bumble's advertising set sending the PDU its event properties ask
    for: with the legacy bit, ADV_IND, ADV_SCAN_IND or ADV_NONCONN_IND as
    the kernel requests for an ordinary advertisement; without it, an
    extended PDU (Bumble sends ADV_EXT_IND whatever the properties say, and
    no scan response)."""

    rng: random.Random = dataclasses.field(default_factory=random.Random)
    repeater: Repeater | None = None

    def __post_init__(self) -> None:
        self.repeater = Repeater(self.send_extended_advertising_data, self.interval_s, self.rng)

    def interval_s(self) -> float:
        return self.parameters.primary_advertising_interval_min * INTERVAL_UNIT_S

    def send_extended_advertising_data(self) -> None:
        # A set without parameters, or with a random address not yet set,
        # has no address to send from.
        if not self.enabled or self.parameters is None or self.address is None:
            return
        properties = self.parameters.advertising_event_properties
        if properties & _PROPERTIES.DIRECTED_ADVERTISING:
            return
        scannable = bool(properties & _PROPERTIES.SCANNABLE_ADVERTISING)
        self.controller.send_advertising_pdu(
            AdvertisingEvent(
                advertiser_address=self.address,
                data=bytes(self.data),
                scan_response=bytes(self.scan_response_data) if scannable else b"",
                legacy=bool(properties & _PROPERTIES.USE_LEGACY_ADVERTISING_PDUS),
                connectable=bool(properties & _PROPERTIES.CONNECTABLE_ADVERTISING),
                scannable=scannable,
            )
        )

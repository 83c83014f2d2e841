"""Advertising through the legacy commands (LE Set Advertising Parameters,
Data, Scan Response Data, Enable)."""

from __future__ import annotations

import dataclasses
import random

from bumble import hci
from bumble.controller import LegacyAdvertiser

from estimator_air.advertising_event import AdvertisingEvent
from estimator_air.repeater import Repeater, RepeatingAdvertiser

# LE Set Advertising Parameters' interval is in units of 0.625 ms (Vol 4,
# Part E, 7.8.5); the kernel's default 0x0800 is 1.28 s.
INTERVAL_UNIT_S = 0.000625

_TYPES = hci.HCI_LE_Set_Advertising_Parameters_Command.AdvertisingType

# Advertising_Type -> (connectable, scannable). Directed advertising
# (ADV_DIRECT_IND) is addressed to one initiator and carries no data: it
# is not modelled, so it puts nothing on the air.
_PDU_SHAPES = {
    _TYPES.ADV_IND: (True, True),
    _TYPES.ADV_SCAN_IND: (False, True),
    _TYPES.ADV_NONCONN_IND: (False, False),
}


@dataclasses.dataclass
class LegacyAdvertising(RepeatingAdvertiser, LegacyAdvertiser):
    """Bumble's legacy advertiser with the PDU its parameters ask for
    (Bumble sends ADV_IND only), the scan response data attached, and the
    interval in 0.625 ms units (Bumble reads it as milliseconds)."""

    rng: random.Random = dataclasses.field(default_factory=random.Random)
    repeater: Repeater | None = None

    def __post_init__(self) -> None:
        self.repeater = Repeater(self.send_advertising_data, self.interval_s, self.rng)

    def interval_s(self) -> float:
        return self.advertising_interval_min * INTERVAL_UNIT_S

    def send_advertising_data(self) -> None:
        shape = _PDU_SHAPES.get(self.advertising_type)
        if not self.enabled or shape is None:
            return
        connectable, scannable = shape
        self.controller.send_advertising_pdu(
            AdvertisingEvent(
                advertiser_address=self.address,
                data=bytes(self.advertising_data),
                scan_response=bytes(self.scan_response_data) if scannable else b"",
                legacy=True,
                connectable=connectable,
                scannable=scannable,
            )
        )

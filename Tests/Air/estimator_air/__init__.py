"""The project's test-only air: Bumble's controller model, corrected where
it departs from the Core specification in ways the Linux kernel and BlueZ
rely on (docs/RIG.md, The Bumble controller model)."""

from estimator_air.advertising_event import AdvertisingEvent
from estimator_air.controller import AirController

__all__ = ["AdvertisingEvent", "AirController"]

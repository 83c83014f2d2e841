"""An advertiser's timing: one event at once, then one every interval."""

from __future__ import annotations

import asyncio
import random
from typing import Callable

# Vol 6, Part B, 4.4.2.2.1: each advertising event is delayed by a
# pseudo-random advDelay of 0-10 ms, so two advertisers on one interval do
# not collide forever.
ADV_DELAY_MAX_S = 0.010


class Repeater:
    """Calls `send` once when started and again every `interval()` seconds
    plus advDelay until stopped, as a controller repeats an advertising
    event on its own: a scanner that starts late still hears the
    advertiser within one interval."""

    def __init__(self, send: Callable[[], None], interval: Callable[[], float], rng: random.Random) -> None:
        self._send = send
        self._interval = interval
        self._rng = rng
        self._timer: asyncio.Handle | None = None

    @property
    def running(self) -> bool:
        return self._timer is not None

    def start(self) -> None:
        self.stop()
        self._timer = asyncio.get_running_loop().call_soon(self._fire)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _fire(self) -> None:
        self._send()
        delay = self._interval() + self._rng.uniform(0, ADV_DELAY_MAX_S)
        self._timer = asyncio.get_running_loop().call_later(delay, self._fire)


class RepeatingAdvertiser:
    """Start and stop for an advertiser whose events a `Repeater` sends
    (`self.repeater`): Bumble's own start and stop send one event, or none."""

    def start(self) -> None:
        self.enabled = True
        self.repeater.start()

    def stop(self) -> None:
        self.enabled = False
        self.repeater.stop()

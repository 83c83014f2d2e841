"""Signal strength by distance and walls: laptops placed on a floor plan,
heard as a log-distance path-loss model says, with walls that cost dB and
noise that makes a steady peer's readings swing, as a room's do."""

from __future__ import annotations

import dataclasses
import math
import random
import re
from typing import Iterable

# RSSI at 1 m, in dBm: what a laptop or phone reads from another at 1 m
# indoors, and the usual calibrated 1 m power of a BLE beacon.
RSSI_AT_1M = -59.0

# 10 times the path-loss exponent, in dB per decade of distance. 2.2 (free
# space is 2, a furnished room a little more) gives -74.4 dBm at 5 m and
# -81 dBm at 10 m: within the -73 to -76 and -79 to -83 dBm measured in
# rooms at those distances.
DB_PER_DECADE = 22.0

# Below half a metre the far-field model no longer holds (and at 0 m it has
# no value): nearer radios are heard as at 0.5 m, -52.4 dBm.
NEAR_FIELD_M = 0.5

# A report weaker than this is lost: the receiver cannot decode the packet.
# LE 1M receivers are rated at -95 to -100 dBm; the model takes the
# sensitive end, so what a floor of signal strength keeps out is heard.
SENSITIVITY_DBM = -100

# The RSSI an advertising report can carry, in dBm (Vol 4, Part E,
# 7.7.65.2 and 7.7.65.13; 127 there means "not available").
RSSI_MIN = -127
RSSI_MAX = 20

_NUMBER = r"[-+]?\d+(?:\.\d+)?"
_PLACE = re.compile(rf"(\d+)=({_NUMBER}),({_NUMBER})")
_WALL = re.compile(rf"({_NUMBER}),({_NUMBER}),({_NUMBER}),({_NUMBER})=(\d+(?:\.\d+)?)")


@dataclasses.dataclass(frozen=True)
class Place:
    """Controller `index` (in transport order) stands at (`x`, `y`), in metres."""

    index: int
    x: float
    y: float

    @classmethod
    def parse(cls, text: str) -> Place:
        """`I=X,Y` (e.g. `2=8,0.5`). Raises ValueError with one sentence
        saying what is wrong."""
        match = _PLACE.fullmatch(text)
        if match is None:
            raise ValueError(f"'{text}' is not I=X,Y, with I a controller index and X and Y in metres.")
        return cls(int(match[1]), float(match[2]), float(match[3]))

    def __str__(self) -> str:
        return f"{self.index}={self.x:g},{self.y:g}"


@dataclasses.dataclass(frozen=True)
class Wall:
    """A wall from (`x1`, `y1`) to (`x2`, `y2`), in metres, costing `loss_db`
    to every path that crosses it."""

    x1: float
    y1: float
    x2: float
    y2: float
    loss_db: float

    @classmethod
    def parse(cls, text: str) -> Wall:
        """`X1,Y1,X2,Y2=DB` (e.g. `5,-10,5,10=8`, a brick wall along x = 5).
        Raises ValueError with one sentence saying what is wrong."""
        match = _WALL.fullmatch(text)
        if match is None:
            raise ValueError(f"'{text}' is not X1,Y1,X2,Y2=DB, a wall's ends in metres and its loss "
                             f"in dB (0 or more).")
        wall = cls(*(float(group) for group in match.groups()))
        if (wall.x1, wall.y1) == (wall.x2, wall.y2):
            raise ValueError(f"'{text}': a wall's two ends must differ.")
        return wall

    def crosses(self, a: Place, b: Place) -> bool:
        """Whether the straight path from `a` to `b` goes through the wall.
        A path along the wall does not; one ending on it does."""
        path = (b.x - a.x, b.y - a.y)
        wall = (self.x2 - self.x1, self.y2 - self.y1)
        denominator = _cross(path, wall)
        if denominator == 0:
            return False
        start = (self.x1 - a.x, self.y1 - a.y)
        along_path = _cross(start, wall) / denominator
        along_wall = _cross(start, path) / denominator
        return 0 <= along_path <= 1 and 0 <= along_wall <= 1

    def __str__(self) -> str:
        return f"{self.x1:g},{self.y1:g},{self.x2:g},{self.y2:g}={self.loss_db:g}"


def _cross(u: tuple[float, float], v: tuple[float, float]) -> float:
    return u[0] * v[1] - u[1] * v[0]


class PathLoss:
    """The RSSI at which placed controllers hear each other:
    RSSI_AT_1M - DB_PER_DECADE * log10(max(d, NEAR_FIELD_M)), less the loss
    of every wall the straight path crosses, plus Gaussian noise of
    `noise_db` standard deviation drawn per report, rounded to whole dBm
    and kept within what a report carries; a report below SENSITIVITY_DBM
    is not heard.

    Each direction of each pair draws its noise from a generator of its own,
    seeded from `seed` and the pair: the readings one controller reports of
    another repeat with the seed, whatever the other pairs exchange.
    `controllers`, when given, is how many controllers the air has; a place
    naming another, or a controller placed twice, raises ValueError with
    one sentence."""

    def __init__(self, places: Iterable[Place] = (), walls: Iterable[Wall] = (), noise_db: float = 0.0,
                 seed: int = 0, controllers: int | None = None) -> None:
        if noise_db < 0:
            raise ValueError(f"the noise's standard deviation must be 0 dB or more, not {noise_db:g}.")
        self.places: dict[int, Place] = {}
        for place in places:
            if controllers is not None and place.index >= controllers:
                raise ValueError(f"'{place}' places controller {place.index}, "
                                 f"but {controllers} transports make controllers 0 to {controllers - 1}.")
            if place.index in self.places:
                raise ValueError(f"'{place}' places controller {place.index} a second time.")
            self.places[place.index] = place
        self.walls = list(walls)
        self.noise_db = noise_db
        self.seed = seed
        self._noise: dict[tuple[int, int], random.Random] = {}

    def placed(self, first: int, second: int) -> bool:
        return first in self.places and second in self.places

    def mean(self, first: int, second: int) -> float:
        """The RSSI before noise and rounding at which placed controllers
        `first` and `second` hear each other, in dBm."""
        a, b = self.places[first], self.places[second]
        distance = max(math.hypot(b.x - a.x, b.y - a.y), NEAR_FIELD_M)
        walls = sum(wall.loss_db for wall in self.walls if wall.crosses(a, b))
        return RSSI_AT_1M - DB_PER_DECADE * math.log10(distance) - walls

    def report(self, sender: int, receiver: int) -> int | None:
        """The RSSI of one report `receiver` makes of an advertising event of
        `sender`, or None when it is too weak to be heard."""
        rssi = self.mean(sender, receiver)
        if self.noise_db > 0:
            rssi += self._generator(sender, receiver).gauss(0.0, self.noise_db)
        reported = min(max(round(rssi), RSSI_MIN), RSSI_MAX)
        return reported if reported >= SENSITIVITY_DBM else None

    def _generator(self, sender: int, receiver: int) -> random.Random:
        pair = (sender, receiver)
        if pair not in self._noise:
            # A string seed is hashed the same way in every process.
            self._noise[pair] = random.Random(f"{self.seed}:{sender}>{receiver}")
        return self._noise[pair]

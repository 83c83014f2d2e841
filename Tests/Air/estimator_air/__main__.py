"""python -m estimator_air [--legacy] [--link I-J=RSSI|I-J=none]...
    [--place I=X,Y]... [--wall X1,Y1,X2,Y2=DB]... [--noise SIGMA] [--seed N]
    TRANSPORT [TRANSPORT...]

One process, one air, one corrected controller per transport. Prints
"ready N ADDRESS..." on standard output once every controller is attached,
then runs until SIGTERM or SIGINT; logs go to standard error
(ESTIMATOR_AIR_LOG sets the level, default WARNING).

Every controller hears every other at -50 dBm. `--link I-J=RSSI` (I and J
controller indexes in transport order, from 0; RSSI an integer from -127
to 20) makes controllers I and J hear each other at RSSI dBm instead, and
`--link I-J=none` makes them deaf to each other; links are symmetric and
the option repeats, one pair each, e.g. `--link 0-2=none --link 1-2=-88`
for a peer at the far end of the room that only controller 1 hears, and
faintly.

`--place I=X,Y` puts controller I at (X, Y) metres on a floor plan; two
placed controllers hear each other as the path-loss model says
(estimator_air.path_loss: -59 dBm at 1 m, less 22 dB per decade of
distance, less each `--wall X1,Y1,X2,Y2=DB` their straight path crosses,
plus Gaussian noise of SIGMA dB (`--noise`, default 0) drawn per report,
from `--seed N`); a report below -100 dBm is not heard. A link names a pair
over the model; a controller not placed hears and is heard at -50 dBm. With
noise and no seed, the process draws a seed and writes it on standard
error. Bad options are a usage error (exit status 2)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import signal
import sys

from estimator_air.air import Air
from estimator_air.links import Link, Links
from estimator_air.path_loss import PathLoss, Place, Wall


async def serve(transports: list[str], extended: bool, links: Links) -> None:
    air = Air(extended=extended, links=links)
    for name in transports:
        await air.attach(name)
    addresses = " ".join(c.public_address.to_string(False) for c in air.controllers)
    print(f"ready {len(air.controllers)} {addresses}", flush=True)
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    await stop.wait()
    await air.close()


def _parsed_by(parse):
    """`parse` as an argparse type: argparse shows an ArgumentTypeError's
    own sentence, a ValueError's not."""
    def parse_argument(text: str):
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return parse_argument


def _noise(text: str) -> float:
    try:
        sigma = float(text)
    except ValueError:
        sigma = -1.0
    if not 0 <= sigma < float("inf"):
        raise ValueError(f"'{text}': the noise is a standard deviation in dB, a number 0 or more.")
    return sigma


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, with `links` the air's link map; a bad one exits
    with status 2 and a usage error, as argparse does."""
    parser = argparse.ArgumentParser(
        prog="python -m estimator_air",
        description="Corrected Bumble LE controllers sharing one air, one per HCI transport. "
                    "Every controller hears every other at -50 dBm unless --link says otherwise.")
    parser.add_argument("--legacy", action="store_true",
                        help="controllers without extended advertising and scanning")
    parser.add_argument("--link", action="append", type=_parsed_by(Link.parse), default=[], dest="links",
                        metavar="I-J=RSSI|I-J=none",
                        help="controllers I and J (indexes in transport order, from 0) hear each other "
                             "at RSSI dBm (an integer from -127 to 20), or not at all (none); "
                             "symmetric, repeatable, one pair each; over --place for that pair")
    parser.add_argument("--place", action="append", type=_parsed_by(Place.parse), default=[], dest="places",
                        metavar="I=X,Y",
                        help="controller I stands at (X, Y) metres: two placed controllers hear each other "
                             "at -59 dBm - 22 dB per decade of distance (at least 0.5 m) - each wall their path "
                             "crosses + noise, not at all below -100 dBm; repeatable, one controller each")
    parser.add_argument("--wall", action="append", type=_parsed_by(Wall.parse), default=[], dest="walls",
                        metavar="X1,Y1,X2,Y2=DB",
                        help="a wall between two points (metres) costing DB dB to a path through it "
                             "(drywall about 4, brick 8, concrete 10 to 15); repeatable")
    parser.add_argument("--noise", type=_parsed_by(_noise), default=0.0, metavar="SIGMA",
                        help="standard deviation in dB of the Gaussian noise added to each report "
                             "of placed controllers (default 0)")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="seed of the noise, so a run's readings repeat (default: drawn, and written "
                             "on standard error)")
    parser.add_argument("transports", nargs="+", metavar="TRANSPORT",
                        help="a Bumble transport name: vhci, unix-server:PATH, tcp-server:HOST:PORT, ...")
    args = parser.parse_args(argv)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2 ** 32)
        if args.noise > 0:
            print(f"estimator_air: noise seed {args.seed}", file=sys.stderr, flush=True)
    # Only now is the number of controllers known, so the indexes' range.
    controllers = len(args.transports)
    try:
        path_loss = PathLoss(args.places, args.walls, noise_db=args.noise, seed=args.seed,
                             controllers=controllers)
    except ValueError as error:
        parser.error(f"argument --place: {error}")
    try:
        args.links = Links(args.links, controllers=controllers, path_loss=path_loss)
    except ValueError as error:
        parser.error(f"argument --link: {error}")
    return args


def main() -> int:
    args = parse_arguments()
    logging.basicConfig(stream=sys.stderr, level=os.environ.get("ESTIMATOR_AIR_LOG", "WARNING").upper(),
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        asyncio.run(serve(args.transports, extended=not args.legacy, links=args.links))
    except OSError as error:
        print(f"estimator_air: {error}", file=sys.stderr)
        return 69
    return 0


if __name__ == "__main__":
    sys.exit(main())

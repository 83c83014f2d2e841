"""python -m estimator_air [--legacy] [--link I-J=RSSI|I-J=none]... TRANSPORT [TRANSPORT...]

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
faintly. A bad link is a usage error (exit status 2)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

from estimator_air.air import Air
from estimator_air.links import Link, Links


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


def _link(text: str) -> Link:
    # argparse shows an ArgumentTypeError's own sentence, a ValueError's not.
    try:
        return Link.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, with `links` the air's link map; a bad one exits
    with status 2 and a usage error, as argparse does."""
    parser = argparse.ArgumentParser(
        prog="python -m estimator_air",
        description="Corrected Bumble LE controllers sharing one air, one per HCI transport. "
                    "Every controller hears every other at -50 dBm unless --link says otherwise.")
    parser.add_argument("--legacy", action="store_true",
                        help="controllers without extended advertising and scanning")
    parser.add_argument("--link", action="append", type=_link, default=[], dest="links",
                        metavar="I-J=RSSI|I-J=none",
                        help="controllers I and J (indexes in transport order, from 0) hear each other "
                             "at RSSI dBm (an integer from -127 to 20), or not at all (none); "
                             "symmetric, repeatable, one pair each")
    parser.add_argument("transports", nargs="+", metavar="TRANSPORT",
                        help="a Bumble transport name: vhci, unix-server:PATH, tcp-server:HOST:PORT, ...")
    args = parser.parse_args(argv)
    # Only now is the number of controllers known, so the indexes' range.
    try:
        args.links = Links(args.links, controllers=len(args.transports))
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

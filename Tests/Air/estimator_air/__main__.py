"""python -m estimator_air [--legacy] TRANSPORT [TRANSPORT...]

One process, one air, one corrected controller per transport. Prints
"ready N ADDRESS..." on standard output once every controller is attached,
then runs until SIGTERM or SIGINT; logs go to standard error
(ESTIMATOR_AIR_LOG sets the level, default WARNING)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

from estimator_air.air import Air


async def serve(transports: list[str], extended: bool) -> None:
    air = Air(extended=extended)
    for name in transports:
        await air.attach(name)
    addresses = " ".join(c.public_address.to_string(False) for c in air.controllers)
    print(f"ready {len(air.controllers)} {addresses}", flush=True)
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    await stop.wait()
    await air.close()


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m estimator_air",
        description="Corrected Bumble LE controllers sharing one air, one per HCI transport.")
    parser.add_argument("--legacy", action="store_true",
                        help="controllers without extended advertising and scanning")
    parser.add_argument("transports", nargs="+", metavar="TRANSPORT",
                        help="a Bumble transport name: vhci, unix-server:PATH, tcp-server:HOST:PORT, ...")
    args = parser.parse_args()
    logging.basicConfig(stream=sys.stderr, level=os.environ.get("ESTIMATOR_AIR_LOG", "WARNING").upper(),
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        asyncio.run(serve(args.transports, extended=not args.legacy))
    except OSError as error:
        print(f"estimator_air: {error}", file=sys.stderr)
        return 69
    return 0


if __name__ == "__main__":
    sys.exit(main())

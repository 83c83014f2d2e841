"""The shared air of a room (Tests/E2E/rooms.sh): one Bumble controller per
transport, all on one link, in this one process.

    python air.py TRANSPORT [TRANSPORT...]     e.g. unix-server:/path/guest0.sock

Bumble as released (PyPI bumble, pinned in mk/rooms.mk), whose
apps/controllers.py takes exactly two transports. Prints "ready N ADDRESS..."
when every controller is up, then serves until it is stopped.
"""

import asyncio
import sys

from bumble.controller import Controller
from bumble.link import LocalLink
from bumble.transport import open_transport


async def serve(names):
    link = LocalLink()
    transports = [await open_transport(name) for name in names]
    # Each its own public address: Bumble's default is 00:00:00:00:00:00,
    # and the room's laptops would share it.
    addresses = [f"F0:A1:00:00:00:{index:02X}" for index in range(len(transports))]
    for index, transport in enumerate(transports):
        Controller(
            f"air{index}",
            host_source=transport.source,
            host_sink=transport.sink,
            link=link,
            public_address=addresses[index],
        )
    print(f"ready {len(transports)} {' '.join(addresses)}", flush=True)
    await asyncio.get_running_loop().create_future()


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: air.py TRANSPORT [TRANSPORT...]")
    asyncio.run(serve(sys.argv[1:]))


if __name__ == "__main__":
    main()

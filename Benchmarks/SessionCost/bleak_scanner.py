"""The reference for `make bench-session`: what a Python developer would write
with bleak to follow an estimator room. Scans for the estimator service UUID
(docs/PROTOCOL.md, Advertisement) and decodes each advertisement's local name the way the session
does (version, channel, card, name), keeping the latest per peer. Prints
"ready" once scanning, and a count of what it decoded when sent SIGTERM."""

import asyncio
import signal
import sys

from bleak import BleakScanner

SERVICE_UUID = "fb3367fd-09f8-4e08-9f6b-07e309fd2576"
CHANNEL = int(sys.argv[1]) if len(sys.argv) > 1 else 1

peers = {}
advertisements = 0


def detected(device, advertisement):
    global advertisements
    advertisements += 1
    name = advertisement.local_name
    if not name or len(name) < 6 or name[0:2] not in ("00", "01"):
        return
    try:
        channel, card = int(name[2:4], 16), int(name[4:6], 16)
    except ValueError:
        return
    if channel == CHANNEL:
        peers[name[6:]] = (card, advertisement.rssi, asyncio.get_running_loop().time())


async def main():
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with BleakScanner(detected, service_uuids=[SERVICE_UUID]):
        print("ready", flush=True)
        await stop.wait()
    print(f"bleak: {advertisements} advertisements, {len(peers)} peers", flush=True)


asyncio.run(main())

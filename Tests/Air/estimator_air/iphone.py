"""An iPhone running the Estimator app, as it advertises in the foreground
(docs/PROTOCOL.md, The Estimator app), on any LE controller it owns through
HCI: in the rig, a radio of either model taken from the kernel through an
HCI user channel; in the tests, a corrected controller on the model's air.

What it puts on the air, from Apple's limits for
`CBPeripheralManager.startAdvertising`: a legacy connectable advertisement
(ADV_IND) whose 31 bytes of advertising data are the flags (LE General
Discoverable, and the BR/EDR bits iPhones send), the 128-bit service UUID
(18 bytes) and the local name shortened to the 10 bytes left (AD type 0x08:
8 bytes of the packet), with no scan response; from a random address whose
two top bits are 01, as a resolvable private address's are (this one
resolves with no key), which changes on demand as iOS changes its own about
every 15 minutes.

    python -m estimator_air.iphone [--repeat SECONDS] INDEX PACKET

INDEX is the controller's (2 for hci2), which must be powered off: the user
channel takes it from the kernel and BlueZ, which get it back at the end.

PACKET is the app's whole packet in hex (`303130303038416c696365` for
`010008Alice`), which goes on the air cut to 8 bytes. Prints "ready ADDRESS" once advertising,
then takes one command a line on standard input, answering each:
`address` (a new address: "address ADDRESS"), `send PACKET` (another card
or name in hex, the address kept: "sent HEX", the bytes on the air). Stops
advertising at the end of its input or on SIGTERM.

`--repeat` starts the advertisement again every SECONDS: a controller that
does not repeat an advertiser (btvirt, docs/RIG.md) reports it to a
scanner only when it starts, where a phone's controller sends it every
152.5 ms."""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import os
import random
import signal
import socket
import struct
import sys
from collections.abc import Awaitable, Callable

# The service UUID of the app and of estimator (docs/PROTOCOL.md,
# Advertisement), as it goes on the air: least significant byte first.
SERVICE_UUID = bytes(reversed(bytes.fromhex("FB3367FD09F84E089F6B07E309FD2576")))
# LE General Discoverable, and "simultaneous LE and BR/EDR" for the
# controller and the host, as iPhones send them.
FLAGS = 0x1A
# What an iPhone leaves of the local name: 10 bytes of advertising data
# after the flags and the UUID, 2 of them the AD structure's header.
NAME_BYTES = 8
# One of Apple's recommended advertising intervals (152.5 ms), in 0.625 ms
# units.
INTERVAL = 244

_AD_FLAGS = 0x01
_AD_UUIDS_128_COMPLETE = 0x07
_AD_NAME_SHORTENED = 0x08

# HCI commands (Vol 4, Part E, 7): opcode = OGF << 10 | OCF.
_RESET = 0x0C03
_LE_SET_RANDOM_ADDRESS = 0x2005
_LE_SET_ADVERTISING_PARAMETERS = 0x2006
_LE_SET_ADVERTISING_DATA = 0x2008
_LE_SET_SCAN_RESPONSE_DATA = 0x2009
_LE_SET_ADVERTISING_ENABLE = 0x200A
_ADV_IND = 0x00
_RANDOM_ADDRESS = 0x01
_ALL_CHANNELS = 0x07

# One command packet out (H4 type byte first), its status back.
Send = Callable[[bytes], Awaitable[int]]


def command(opcode: int, parameters: bytes = b"") -> bytes:
    """An HCI command packet, H4 type byte first."""
    return struct.pack("<BHB", 0x01, opcode, len(parameters)) + parameters


def advertising_data(packet: bytes) -> bytes:
    """The advertising data an iPhone sends for `packet`: flags, service
    UUID, and the packet's first 8 bytes as the shortened local name."""
    name = packet[:NAME_BYTES]
    return (bytes([2, _AD_FLAGS, FLAGS])
            + bytes([1 + len(SERVICE_UUID), _AD_UUIDS_128_COMPLETE]) + SERVICE_UUID
            + bytes([1 + len(name), _AD_NAME_SHORTENED]) + name)


def resolvable_looking_address(rng: random.Random) -> str:
    """A random address (`XX:XX:XX:XX:XX:XX`, most significant byte first)
    with the two top bits 01, as a resolvable private address has; the
    other 46 bits random."""
    octets = [0x40 | rng.randrange(64)] + [rng.randrange(256) for _ in range(5)]
    return ":".join(f"{o:02X}" for o in octets)


def _address_bytes(address: str) -> bytes:
    """An address as HCI carries it: least significant byte first."""
    return bytes(reversed(bytes.fromhex(address.replace(":", ""))))


def _significant(data: bytes) -> bytes:
    """Advertising or scan response data in the 31-byte field the legacy
    commands carry: its length, then the data, zero-padded."""
    return bytes([len(data)]) + data.ljust(31, b"\0")


class IPhone:
    """The iPhone's advertising, driven through `send` (an HCI command
    packet out, its status back)."""

    def __init__(self, send: Send, packet: bytes, rng: random.Random | None = None) -> None:
        self._send = send
        self.packet = packet
        self._rng = rng or random.Random()
        self.address = resolvable_looking_address(self._rng)

    async def start(self) -> None:
        """Resets the controller and advertises."""
        await self._command(_RESET)
        await self._command(_LE_SET_RANDOM_ADDRESS, _address_bytes(self.address))
        await self._command(_LE_SET_ADVERTISING_PARAMETERS, struct.pack(
            "<HHBBB6sBB", INTERVAL, INTERVAL, _ADV_IND, _RANDOM_ADDRESS, 0, bytes(6), _ALL_CHANNELS, 0))
        await self._command(_LE_SET_SCAN_RESPONSE_DATA, _significant(b""))
        await self._command(_LE_SET_ADVERTISING_DATA, _significant(advertising_data(self.packet)))
        await self._enable(True)

    async def new_address(self) -> str:
        """Takes a new address, as iOS does about every 15 minutes: to a
        scanner, a new device."""
        self.address = resolvable_looking_address(self._rng)
        await self._enable(False)
        await self._command(_LE_SET_RANDOM_ADDRESS, _address_bytes(self.address))
        await self._enable(True)
        return self.address

    async def send_packet(self, packet: bytes) -> None:
        """Advertises `packet` from the same address: the app stops
        advertising and starts again with the new local name."""
        self.packet = packet
        await self._enable(False)
        await self._command(_LE_SET_ADVERTISING_DATA, _significant(advertising_data(packet)))
        await self._enable(True)

    async def repeat(self) -> None:
        """Starts the same advertisement again."""
        await self._enable(False)
        await self._enable(True)

    async def stop(self) -> None:
        await self._enable(False)

    async def _enable(self, on: bool) -> None:
        await self._command(_LE_SET_ADVERTISING_ENABLE, bytes([int(on)]))

    async def _command(self, opcode: int, parameters: bytes = b"") -> None:
        status = await self._send(command(opcode, parameters))
        if status != 0:
            raise OSError(f"HCI command 0x{opcode:04X} failed with status 0x{status:02X}")


class HCIChannel:
    """Commands to a controller, one at a time, each awaited until its
    Command Complete or Command Status; `write` sends a packet (its H4 type
    byte first), `on_packet` takes each one the controller sends."""

    def __init__(self, write: Callable[[bytes], object]) -> None:
        self._write = write
        self._waiting: tuple[int, asyncio.Future[int]] | None = None

    def on_packet(self, packet: bytes) -> None:
        """Command Complete (event 0x0E: credits, opcode, status first) or
        Command Status (0x0F: status, credits, opcode) of the command sent."""
        if self._waiting is None or len(packet) < 7 or packet[0] != 0x04:
            return
        opcode, reply = self._waiting
        if packet[1] == 0x0E and struct.unpack_from("<H", packet, 4)[0] == opcode and not reply.done():
            reply.set_result(packet[6])
        elif packet[1] == 0x0F and struct.unpack_from("<H", packet, 5)[0] == opcode and not reply.done():
            reply.set_result(packet[3])

    async def send(self, packet: bytes) -> int:
        reply: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting = (struct.unpack_from("<H", packet, 1)[0], reply)
        self._write(packet)
        try:
            return await asyncio.wait_for(reply, timeout=5)
        finally:
            self._waiting = None


# <sys/socket.h> and <bluetooth/hci.h>: Python's socket module has no
# AF_BLUETOOTH when it was built without the Bluetooth headers.
_AF_BLUETOOTH = 31
_BTPROTO_HCI = 1
_HCI_CHANNEL_USER = 1


def user_channel(index: int) -> int:
    """A socket (its descriptor) on controller `index`'s HCI user channel:
    every packet to and from the controller, one per read or write."""
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.socket(_AF_BLUETOOTH, socket.SOCK_RAW | socket.SOCK_NONBLOCK | socket.SOCK_CLOEXEC, _BTPROTO_HCI)
    if fd < 0:
        raise OSError(ctypes.get_errno(), f"no HCI socket: {os.strerror(ctypes.get_errno())}")
    address = struct.pack("<HHH", _AF_BLUETOOTH, index, _HCI_CHANNEL_USER)
    if libc.bind(fd, address, len(address)) != 0:
        error = ctypes.get_errno()
        os.close(fd)
        raise OSError(error, f"hci{index}'s user channel: {os.strerror(error)} (is it powered off?)")
    return fd


async def _serve(index: int, packet: bytes, repeat: float | None) -> None:
    loop = asyncio.get_running_loop()
    fd = user_channel(index)
    channel = HCIChannel(lambda data: os.write(fd, data))
    loop.add_reader(fd, lambda: channel.on_packet(os.read(fd, 1024)))
    phone = IPhone(channel.send, packet)
    lock = asyncio.Lock()
    async with lock:
        await phone.start()
    print(f"ready {phone.address}", flush=True)

    async def repeating() -> None:
        while True:
            await asyncio.sleep(repeat)
            async with lock:
                await phone.repeat()

    repeater = asyncio.create_task(repeating()) if repeat else None
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)

    async def commands() -> None:
        while line := (await reader.readline()).decode().split():
            async with lock:
                if line == ["address"]:
                    print(f"address {await phone.new_address()}", flush=True)
                elif line[0] == "send" and len(line) == 2:
                    await phone.send_packet(bytes.fromhex(line[1]))
                    print(f"sent {phone.packet[:NAME_BYTES].hex()}", flush=True)
                else:
                    print(f"unknown command: {' '.join(line)!r}", file=sys.stderr, flush=True)
        stop.set()

    reading = asyncio.create_task(commands())
    await stop.wait()
    for task in (reading, repeater):
        if task:
            task.cancel()
    async with lock:
        await phone.stop()
    loop.remove_reader(fd)
    os.close(fd)


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m estimator_air.iphone",
        description="An iPhone running the Estimator app, advertising as it does in the foreground.")
    parser.add_argument("--repeat", type=float, metavar="SECONDS",
                        help="start the advertisement again every SECONDS (a controller that does not repeat)")
    parser.add_argument("index", type=int, metavar="INDEX", help="the controller's index (2 for hci2), powered off")
    parser.add_argument("packet", metavar="PACKET", help="the app's packet, in hex")
    args = parser.parse_args()
    try:
        asyncio.run(_serve(args.index, bytes.fromhex(args.packet), args.repeat))
    except OSError as error:
        print(f"estimator_air.iphone: {error}", file=sys.stderr)
        return 69
    return 0


if __name__ == "__main__":
    sys.exit(main())

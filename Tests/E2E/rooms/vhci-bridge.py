#!/usr/bin/python3
"""Guest side of a room's air (Tests/E2E/rooms.sh): makes this guest's
controller with Linux's hci_vhci and carries its HCI packets to and from the
host's air over a virtio serial port.

    vhci-bridge.py PORT_NAME

/dev/vhci keeps packet boundaries (one packet, with its H4 type byte, per read
and per write); the port is a byte stream, so packets from the host are
framed by their H4 headers before each is written to /dev/vhci whole.
Standard library only: it runs from the host's tree, read-only, with the
guest's python3. Prints "hciN" once the kernel has made the controller.
"""

import os
import select
import sys

VENDOR = 0xFF
# hci_vhci's creation request: the vendor type and the device type, primary.
CREATE_PRIMARY = bytes([VENDOR, 0x00])

# H4 type -> (header length after the type byte, payload length from header).
HEADERS = {
    0x01: (3, lambda h: h[2]),                                  # command
    0x02: (4, lambda h: h[2] | h[3] << 8),                      # ACL data
    0x03: (3, lambda h: h[2]),                                  # SCO data
    0x04: (2, lambda h: h[1]),                                  # event
    0x05: (4, lambda h: (h[2] | h[3] << 8) & 0x3FFF),           # ISO data
}


def port_path(name):
    """The /dev node of the virtio serial port QEMU named NAME."""
    root = "/sys/class/virtio-ports"
    for port in sorted(os.listdir(root)):
        with open(os.path.join(root, port, "name")) as f:
            if f.read().strip() == name:
                return "/dev/" + port
    sys.exit(f"vhci-bridge: no virtio serial port named {name}")


def write_all(fd, data):
    while data:
        data = data[os.write(fd, data):]


def frames(buffer):
    """Complete H4 packets at the start of BUFFER, and what is left."""
    packets = []
    while buffer:
        kind = buffer[0]
        if kind not in HEADERS:
            sys.exit(f"vhci-bridge: the air sent H4 type {kind:#04x}: the stream is out of step")
        header, payload = HEADERS[kind]
        if len(buffer) < 1 + header:
            break
        size = 1 + header + payload(buffer[1:1 + header])
        if len(buffer) < size:
            break
        packets.append(buffer[:size])
        buffer = buffer[size:]
    return packets, buffer


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: vhci-bridge.py PORT_NAME")
    port = os.open(port_path(sys.argv[1]), os.O_RDWR)
    vhci = os.open("/dev/vhci", os.O_RDWR)
    # Asked for at once: otherwise the kernel makes one on its own a second
    # after the open, and the index it reports back is the only sign.
    os.write(vhci, CREATE_PRIMARY)
    pending = b""
    while True:
        ready, _, _ = select.select([vhci, port], [], [])
        if vhci in ready:
            packet = os.read(vhci, 4096)
            if packet[:1] == bytes([VENDOR]) and len(packet) == 4:
                # The index comes little-endian after the device type.
                print(f"hci{packet[2] | packet[3] << 8}", flush=True)
            else:
                write_all(port, packet)
        if port in ready:
            data = os.read(port, 4096)
            if not data:
                sys.exit("vhci-bridge: the host's air closed the port")
            packets, pending = frames(pending + data)
            for packet in packets:
                os.write(vhci, packet)


if __name__ == "__main__":
    main()

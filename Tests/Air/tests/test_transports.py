"""`python -m estimator_air` puts one controller behind each of any number
of transports, all on one air (Bumble's apps/controllers.py takes exactly
two), where they hear each other as `--link` says, and says when they are
up."""

import os
import socket
import subprocess
import sys
import tempfile
import unittest

from bumble import hci

TRANSPORTS = 3
DEADLINE_S = 20


class Client:
    """A host on one unix-socket transport: H4 packets out, events in."""

    def __init__(self, path: str) -> None:
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.socket.settimeout(DEADLINE_S)
        self.buffer = b""

    def send(self, command: hci.HCI_Command) -> None:
        self.socket.sendall(bytes(command))

    def next_event(self) -> hci.HCI_Event:
        while True:
            # H4: type 0x04, event code, parameter length, parameters.
            if len(self.buffer) >= 3 and len(self.buffer) >= 3 + self.buffer[2]:
                size = 3 + self.buffer[2]
                packet, self.buffer = self.buffer[:size], self.buffer[size:]
                return hci.HCI_Packet.from_bytes(packet)
            data = self.socket.recv(4096)
            if not data:
                raise AssertionError("the transport closed")
            self.buffer += data

    def command(self, command: hci.HCI_Command):
        self.send(command)
        while True:
            event = self.next_event()
            if isinstance(event, hci.HCI_Command_Complete_Event) and event.command_opcode == command.op_code:
                return event.return_parameters

    def first_report(self) -> hci.HCI_LE_Advertising_Report_Event:
        while True:
            event = self.next_event()
            if isinstance(event, hci.HCI_LE_Advertising_Report_Event):
                return event


class TransportsTest(unittest.TestCase):

    def test_three_transports_three_controllers_one_air(self):
        with tempfile.TemporaryDirectory() as folder:
            paths = [os.path.join(folder, f"hci{i}") for i in range(TRANSPORTS)]
            air = subprocess.Popen(
                [sys.executable, "-m", "estimator_air", "--link", "0-1=-88",
                 *(f"unix-server:{p}" for p in paths)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            clients = []
            try:
                ready = air.stdout.readline().split()
                self.assertEqual(ready[:2], ["ready", str(TRANSPORTS)], air.stderr.read() if not ready else ready)
                clients.extend(Client(p) for p in paths)
                addresses = {c.command(hci.HCI_Read_BD_ADDR_Command()).bd_addr.to_string(False) for c in clients}
                self.assertEqual(addresses, set(ready[2:]))
                self.assertEqual(len(addresses), TRANSPORTS)

                for scanner in clients[1:]:
                    assert scanner.command(hci.HCI_LE_Set_Scan_Enable_Command(
                        le_scan_enable=1, filter_duplicates=1)).status == 0
                advertiser = clients[0]
                data = bytes.fromhex("020106")
                assert advertiser.command(hci.HCI_LE_Set_Advertising_Parameters_Command(
                    advertising_interval_min=160, advertising_interval_max=160,
                    advertising_type=3, own_address_type=0, peer_address_type=0,
                    peer_address=hci.Address.ANY, advertising_channel_map=7,
                    advertising_filter_policy=0)).status == 0
                assert advertiser.command(hci.HCI_LE_Set_Advertising_Data_Command(advertising_data=data)).status == 0
                assert advertiser.command(hci.HCI_LE_Set_Advertising_Enable_Command(advertising_enable=1)).status == 0
                advertiser_address = ready[2]
                # Controller 1 hears the advertiser over its link, 2 at the default.
                for scanner, rssi in zip(clients[1:], (-88, -50)):
                    report = scanner.first_report().reports[0]
                    self.assertEqual(report.address.to_string(False), advertiser_address)
                    self.assertEqual(bytes(report.data), data)
                    self.assertEqual(report.rssi, rssi)
            finally:
                for client in clients:
                    client.socket.close()
                air.terminate()
                self.assertEqual(air.wait(DEADLINE_S), 0)
                air.stdout.close()
                air.stderr.close()

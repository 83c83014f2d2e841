"""Bumble's controller with the project's corrections."""

from __future__ import annotations

import asyncio
import logging
import random

from bumble import controller as bumble_controller
from bumble import hci
from bumble.controller import Controller
from bumble.link import LocalLink

from estimator_air.advertising_event import AdvertisingEvent
from estimator_air.advertising_set import AdvertisingSetOnAir
from estimator_air.legacy_advertiser import LegacyAdvertising
from estimator_air.links import DEFAULT_RSSI
from estimator_air.scanner import Scanner

_EXTENDED_COMMANDS = {
    hci.HCI_LE_SET_ADVERTISING_SET_RANDOM_ADDRESS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_PARAMETERS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_DATA_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_RESPONSE_DATA_COMMAND,
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_ENABLE_COMMAND,
    hci.HCI_LE_READ_MAXIMUM_ADVERTISING_DATA_LENGTH_COMMAND,
    hci.HCI_LE_READ_NUMBER_OF_SUPPORTED_ADVERTISING_SETS_COMMAND,
    hci.HCI_LE_REMOVE_ADVERTISING_SET_COMMAND,
    hci.HCI_LE_CLEAR_ADVERTISING_SETS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_PARAMETERS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_ENABLE_COMMAND,
}

_EXTENDED_FEATURES = (hci.LeFeatureMask.LE_EXTENDED_ADVERTISING
                      | hci.LeFeatureMask.LE_PERIODIC_ADVERTISING)

_OK = hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)
_DISALLOWED = hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.COMMAND_DISALLOWED_ERROR)


class AirController(Controller):
    """An LE controller on a shared air (Bumble's LocalLink, or a PartialLink
    where not every pair hears each other) that behaves as
    the Core specification says where the kernel and BlueZ depend on it.

    `extended` makes it a Core 5 controller with extended advertising and
    scanning (the commands and the feature bit, so the kernel uses them);
    without it, a legacy controller the kernel drives with the legacy
    commands only. Bumble claims the feature but not the extended scan
    commands, so the kernel mixes extended advertising with legacy
    scanning, which the specification forbids."""

    def __init__(self, name: str, *, host_source=None, host_sink=None, link: LocalLink,
                 public_address: hci.Address, extended: bool = True,
                 rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()
        super().__init__(name, host_source=host_source, host_sink=host_sink, link=link,
                         public_address=public_address)
        self.supported_commands = set(Controller.supported_commands)
        if extended:
            self.le_features = Controller.le_features | _EXTENDED_FEATURES
            self.supported_commands |= _EXTENDED_COMMANDS
        else:
            self.le_features = Controller.le_features & ~_EXTENDED_FEATURES
        self.le_legacy_advertiser = LegacyAdvertising(self, rng=self.rng)
        self.scanner = Scanner(clock=asyncio.get_running_loop().time)

    # ---- packets to and from the host ------------------------------------
    #
    # Bumble formats every packet for its debug log, logged or not, before
    # each reply the kernel waits for: in the guest, the largest share of
    # the model's time (docs/MEASUREMENTS.md, The guest's CPU). The packets
    # go the same way; the debug log only formats them when it is on.

    def on_hci_packet(self, packet: hci.HCI_Packet) -> None:
        if bumble_controller.logger.isEnabledFor(logging.DEBUG) or not isinstance(packet, hci.HCI_Command):
            super().on_hci_packet(packet)
            return
        self.on_hci_command_packet(packet)

    def send_hci_packet(self, packet: hci.HCI_Packet) -> None:
        if bumble_controller.logger.isEnabledFor(logging.DEBUG):
            super().send_hci_packet(packet)
        elif self.host:
            asyncio.get_running_loop().call_soon(self.host.on_packet, bytes(packet))

    # ---- unknown commands ------------------------------------------------

    def on_hci_command_packet(self, command: hci.HCI_Command) -> None:
        """Every command gets a reply (Vol 4, Part E, 4.5): one the model
        has no handler for gets Unknown HCI Command, in Command Status for
        a command that is answered that way, else in Command Complete.
        Bumble answers only the commands its HCI layer knows as
        synchronous, so the host waits out its command timeout on the
        others."""
        if getattr(self, f"on_{command.name.lower()}", None) is not None:
            super().on_hci_command_packet(command)
        elif isinstance(command, hci.HCI_AsyncCommand):
            self._send_hci_command_status(hci.HCI_ErrorCode.UNKNOWN_HCI_COMMAND_ERROR, command.op_code)
        else:
            self.send_hci_packet(hci.HCI_Command_Complete_Event(
                num_hci_command_packets=1,
                command_opcode=command.op_code,
                return_parameters=hci.HCI_StatusReturnParameters(
                    hci.HCI_ErrorCode.UNKNOWN_HCI_COMMAND_ERROR),
            ))

    def on_hci_reset_command(self, command: hci.HCI_Reset_Command) -> hci.HCI_StatusReturnParameters:
        """Reset stops advertising and scanning and forgets the sets."""
        self.le_legacy_advertiser.stop()
        for advertising_set in self.advertising_sets.values():
            advertising_set.stop()
        self.advertising_sets.clear()
        self.scanner.enable(False, False, False)
        self.le_scan_enable = False
        return super().on_hci_reset_command(command)

    # ---- the random address ------------------------------------------------

    def on_hci_le_set_random_address_command(
            self, command: hci.HCI_LE_Set_Random_Address_Command) -> hci.HCI_StatusReturnParameters:
        """Command Disallowed while scanning, legacy advertising or initiating
        (Vol 4, Part E, 7.8.4). This is why a host pauses its scan to give
        a legacy advertisement a new address; Bumble accepts it."""
        if self.scanner.enabled or self.le_legacy_advertiser.enabled or self.pending_le_connection:
            return _DISALLOWED
        return super().on_hci_le_set_random_address_command(command)

    # ---- advertising sets ----------------------------------------------------

    def _advertising_set(self, handle: int) -> AdvertisingSetOnAir:
        if handle not in self.advertising_sets:
            self.advertising_sets[handle] = AdvertisingSetOnAir(controller=self, handle=handle, rng=self.rng)
        return self.advertising_sets[handle]

    def on_hci_le_set_advertising_set_random_address_command(self, command):
        self._advertising_set(command.advertising_handle)
        return super().on_hci_le_set_advertising_set_random_address_command(command)

    def on_hci_le_set_extended_advertising_parameters_command(self, command):
        self._advertising_set(command.advertising_handle)
        return super().on_hci_le_set_extended_advertising_parameters_command(command)

    # ---- scanning --------------------------------------------------------------

    def on_hci_le_set_scan_parameters_command(self, command):
        result = super().on_hci_le_set_scan_parameters_command(command)
        if result.status == hci.HCI_ErrorCode.SUCCESS:
            self.scanner.set_parameters(bool(command.le_scan_type), command.le_scan_interval,
                                        command.le_scan_window)
        return result

    def on_hci_le_set_scan_enable_command(self, command):
        self.scanner.enable(bool(command.le_scan_enable), bool(command.filter_duplicates),
                            extended_reports=False)
        return super().on_hci_le_set_scan_enable_command(command)

    def on_hci_le_set_extended_scan_parameters_command(self, command):
        if self.scanner.enabled:
            return _DISALLOWED
        # The first PHY's parameters: the air has one PHY.
        self.scanner.set_parameters(bool(command.scan_types[0]), command.scan_intervals[0],
                                    command.scan_windows[0])
        return super().on_hci_le_set_extended_scan_parameters_command(command)

    def on_hci_le_set_extended_scan_enable_command(self, command):
        self.scanner.enable(bool(command.enable), bool(command.filter_duplicates),
                            extended_reports=True)
        return super().on_hci_le_set_extended_scan_enable_command(command)

    # ---- the air -------------------------------------------------------------------

    def on_ll_advertising_pdu(self, packet, rssi: int = DEFAULT_RSSI) -> None:
        """Hears `packet` at `rssi` dBm: the air's PartialLink hands over
        its link's, and Bumble's LocalLink none, so every peer is heard at
        the default. The model's own advertising events go to the scanner;
        any other PDU (CONNECT_IND) to Bumble, which has no use for the
        RSSI."""
        if isinstance(packet, AdvertisingEvent):
            for report in self.scanner.reports(packet, rssi):
                self.send_hci_packet(report)
            return
        super().on_ll_advertising_pdu(packet)

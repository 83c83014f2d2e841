"""The rig's reader of its air record (estimator_air.air_record) on btmon
excerpts in the shapes `TZ=UTC btmon -t -r` prints: a header line per
packet ("< HCI Command: ...  #N [hciX] HH:MM:SS.ffffff", "@ MGMT ...
{0x0001} [hciX] ..."), then its decoding, indented."""

import io
import math
import pathlib
import unittest

from estimator_air import air_record


def header(kind: str, text: str, index: int, clock: str, mgmt: bool = False) -> str:
    tag = "{0x0001}" if mgmt else "#7"
    return f"{kind} {text}{' ' * 12}{tag} [hci{index}] {clock}"


def scan(index: int, clock: str, on: bool) -> list[str]:
    return [header("<", "HCI Command: LE Set Scan Enable (0x08|0x000c) plen 2", index, clock),
            f"        Scanning: {'Enabled (0x01)' if on else 'Disabled (0x00)'}",
            "        Filter duplicates: Disabled (0x00)"]


def discovering(index: int, clock: str) -> list[str]:
    return [header("@", "MGMT Event: Discovering (0x0013) plen 2", index, clock, mgmt=True),
            "        Address type: 0x06",
            "          LE Public",
            "          LE Random",
            "        Discovery: Enabled (0x01)"]


def advertising(index: int, clock: str, on: bool = True) -> list[str]:
    return [header("<", "HCI Command: LE Set Advertise Enable (0x08|0x000a) plen 1", index, clock),
            f"        Advertising: {'Enabled (0x01)' if on else 'Disabled (0x00)'}"]


def reported(index: int, clock: str, name: str, address: str = "00:AA:01:01:00:02") -> list[str]:
    return [header("@", "MGMT Event: Device Found (0x0012) plen 45", index, clock, mgmt=True),
            f"        LE Address: {address} (OUI 00-AA-01)",
            "        RSSI: -60 dBm (0xc4)",
            "        Flags: 0x00000004",
            "          Not Connectable",
            "        Data length: 31",
            "        Flags: 0x04",
            "          BR/EDR Not Supported",
            f"        Name (complete): {name}"]


class TimelineTests(unittest.TestCase):
    def test_each_event_is_one_line_with_its_radio_and_time(self):
        text = [
            *scan(0, "10:00:00.100000", on=False),
            header("@", "MGMT Command: Add Advertising (0x003e) plen 27", 1, "10:00:00.200000", mgmt=True),
            "        Instance: 1",
            header("<", "HCI Command: LE Set Random Address (0x08|0x0005) plen 6", 1, "10:00:00.250000"),
            "        Address: 3C:F1:6E:77:A1:5E (Non-Resolvable)",
            *advertising(1, "10:00:00.300000"),
            *discovering(0, "10:00:00.400000"),
            *reported(0, "10:00:00.500000", "010008Alice"),
            header(">", "HCI Event: Command Complete (0x0e) plen 4", 1, "10:00:00.600000"),
            "      LE Set Advertise Enable (0x08|0x000a) ncmd 1",
            "        Status: Command Disallowed (0x0c)",
        ]
        self.assertEqual(air_record.timeline(text, "86400"), [
            "10:00:00.100000 hci0 scan (0x00)",
            "10:00:00.200000 hci1 @ MGMT Command: Add Advertising (0x003e) plen 27",
            "10:00:00.250000 hci1 new address",
            "10:00:00.300000 hci1 advertising (0x01)",
            "10:00:00.400000 hci0 @ MGMT Event: Discovering (0x0013) plen 2",
            "10:00:00.400000 hci0 discovering (0x01)",
            "10:00:00.500000 hci0 kernel reported 010008Alice 00:AA:01:01:00:02",
            "10:00:00.600000 hci1 Status: Command Disallowed (0x0c)",
        ])

    def test_a_report_the_controller_heard_says_so(self):
        text = [header(">", "HCI Event: LE Meta Event (0x3e) plen 43", 2, "10:00:01.000000"),
                "      LE Advertising Report (0x02)",
                "        Address: 00:AA:01:00:00:23 (OUI 00-AA-01)",
                "        Name (short): 010003Da"]
        self.assertEqual(air_record.timeline(text, "86400"),
                         ["10:00:01.000000 hci2 controller heard 010003Da 00:AA:01:00:00:23"])

    def test_the_span_counts_back_from_until_or_the_last_event(self):
        text = [*scan(0, "10:00:00.000000", on=False), *scan(0, "10:00:05.000000", on=True),
                *scan(0, "10:00:09.000000", on=False)]
        self.assertEqual(air_record.timeline(text, "4"),
                         ["10:00:05.000000 hci0 scan (0x01)", "10:00:09.000000 hci0 scan (0x00)"])
        self.assertEqual(air_record.timeline(text, "5", "10:00:05"),
                         ["10:00:00.000000 hci0 scan (0x00)", "10:00:05.000000 hci0 scan (0x01)"])
        self.assertEqual(air_record.timeline([], "10"), [])

    def test_hostile_names_come_out_as_cat_v_shows_them(self):
        text = reported(0, "10:00:00.000000", "\x1b[2Jx\xa0y\x7f\xe4")
        self.assertEqual(air_record.timeline(text, "86400"),
                         ["10:00:00.000000 hci0 kernel reported ^[[2JxM- y^?M-d 00:AA:01:01:00:02"])


class UnheardTests(unittest.TestCase):
    def test_the_longest_silence_counts_from_the_start_and_to_the_end(self):
        text = [*reported(0, "10:00:01.000000", "Bob"), *reported(0, "10:00:05.500000", "Bob"),
                *reported(0, "10:00:06.000000", "Bob"), *reported(1, "10:00:02.000000", "Alice")]
        # Bob on hci0: 1 s from the start, 4.5 s (over 3), 0.5 s, 2 s to the end.
        # Alice on hci1: 2 s from the start, 6 s to the end (over 3).
        self.assertEqual(air_record.unheard(text, "10:00:00", "10:00:08"), [
            "hci0 Bob 4.50 1 3",
            "hci1 Alice 6.00 1 1",
        ])

    def test_reports_outside_the_window_are_not_counted(self):
        text = [*reported(0, "09:59:59.000000", "Bob"), *reported(0, "10:00:02.000000", "Bob"),
                *reported(0, "10:00:09.000000", "Bob")]
        self.assertEqual(air_record.unheard(text, "10:00:00", "10:00:04"), ["hci0 Bob 2.00 0 1"])


class MissesTests(unittest.TestCase):
    def test_starts_within_300_ms_are_one_announcement_heard_if_any_start_was(self):
        text = [
            *scan(1, "10:00:00.000000", on=True), *discovering(1, "10:00:00.010000"),
            # One announcement, heard.
            *advertising(0, "10:00:01.000000"), *advertising(0, "10:00:01.200000"),
            # hci1 deaf from here: two announcements missed, the second right after the first.
            *scan(1, "10:00:02.000000", on=False),
            *advertising(0, "10:00:03.000000"),
            *advertising(0, "10:00:04.000000"),
            *discovering(1, "10:00:05.000000"),
            *advertising(0, "10:00:06.000000"),
        ]
        self.assertEqual(air_record.misses(text, "10:00:00", "10:00:10"),
                         ["hci1 hci0 4 2 1"])


class FirstStartHeardTests(unittest.TestCase):
    def test_each_moment_gets_the_next_start_as_the_listener_could_hear_it(self):
        text = [
            *scan(0, "10:00:00.000000", on=True), *discovering(0, "10:00:00.010000"),
            *advertising(1, "10:00:01.000000"),
            *scan(0, "10:00:01.500000", on=False),
            *advertising(1, "10:00:02.000000"),
        ]
        day = 1_764_000_000 - 1_764_000_000 % 86400  # a midnight, UTC
        moments = "\n".join(str((day + 36000) * 1000 + ms) for ms in (500, 1500, 2500))
        self.assertEqual(air_record.first_start_heard(text, "0", "1", moments), ["heard", "deaf", "none"])
        self.assertEqual(air_record.first_start_heard(text, "0", "1", ""), [])


class RadioStatsTests(unittest.TestCase):
    def test_deaf_from_scan_stop_to_discovering_and_starts_per_minute(self):
        text = [
            *scan(0, "10:00:00.000000", on=False), *discovering(0, "10:00:00.500000"),
            *advertising(0, "10:00:10.000000"),
            header("<", "HCI Command: LE Set Advertising Set Random Address (0x08|0x0035) plen 7",
                   0, "10:00:11.000000"),
            *scan(0, "10:00:24.000000", on=False), *scan(0, "10:00:29.000000", on=True),
            *discovering(0, "10:00:30.000000"),
            # Off again at the end: deaf to the end of the window.
            *scan(0, "10:00:54.000000", on=False),
        ]
        # Deaf 0.5 + 6 + 6 s of 60; one start, one address, one scan.
        self.assertEqual(air_record.radio_stats(text, "10:00:00", "10:01:00"),
                         ["hci0 deaf 20.8 starts 1.0 addresses 1.0 scans 1.0"])

    def test_deaf_before_the_window_counts_from_its_start(self):
        text = [*scan(1, "09:59:58.000000", on=False), *discovering(1, "10:00:03.000000")]
        self.assertEqual(air_record.radio_stats(text, "10:00:00", "10:01:00"),
                         ["hci1 deaf 5.0 starts 0.0 addresses 0.0 scans 0.0"])


class AdvertisementTests(unittest.TestCase):
    def test_the_last_parameters_data_and_scan_response_of_one_radio(self):
        text = [
            "< HCI Command: LE Set Advertising Parameters (0x08|0x0006) plen 15   #40 [hci1] 3.1",
            "        Min advertising interval: 100.000 msec (0x00a0)",
            "        Max advertising interval: 100.000 msec (0x00a0)",
            "        Type: Scannable undirected - ADV_SCAN_IND (0x02)",
            "        Own address type: Random (0x01)",
            "< HCI Command: LE Set Advertising Data (0x08|0x0008) plen 32   #41 [hci1] 3.2",
            "        Length: 21",
            "        Flags: 0x04",
            "          BR/EDR Not Supported",
            "< HCI Command: LE Set Scan Response Data (0x08|0x0009) plen 32   #42 [hci0] 3.3",
            "        Length: 13",
            "        Name (complete): 010008Other",
            "< HCI Command: LE Set Scan Response Data (0x08|0x0009) plen 32   #43 [hci1] 3.4",
            "        Length: 13",
            "        Name (complete): 010005Alice\x1b",
            "> HCI Event: Command Complete (0x0e) plen 4   #44 [hci1] 3.5",
            "        Status: Success (0x00)",
        ]
        self.assertEqual(air_record.advertisement(text, "1"), [
            "advertising data: Flags: 0x04; BR/EDR Not Supported",
            "parameters: Min advertising interval: 100.000 msec (0x00a0); "
            "Max advertising interval: 100.000 msec (0x00a0); Type: Scannable undirected - ADV_SCAN_IND (0x02)",
            "scan response: Name (complete): 010005Alice^[",
        ])


class ReadingTests(unittest.TestCase):
    def test_numbers_and_fields_as_awk_reads_them(self):
        self.assertEqual(air_record.number("12.5abc"), 12.5)
        self.assertEqual(air_record.number("abc"), 0.0)
        self.assertEqual(air_record.seconds("01:02:03.5"), 3723.5)
        self.assertEqual(air_record.fields("  a \t b  "), ["a", "b"])
        self.assertTrue(math.isclose(air_record.seconds("23:59:59.999999"), 86399.999999))

    def test_the_command_line_reads_bytes_and_writes_them_shown(self):
        stdin = io.BytesIO("\n".join(reported(0, "10:00:00.000000", "\xffA")).encode("latin-1") + b"\n")
        stdout = io.BytesIO()
        status = air_record.main(["timeline", "10"], stdin=stdin, stdout=stdout)
        self.assertEqual(status, 0)
        self.assertEqual(stdout.getvalue(), b"10:00:00.000000 hci0 kernel reported M-^?A 00:AA:01:01:00:02\n")
        for wrong in (["timeline"], ["nonsense", "1"], []):
            self.assertEqual(air_record.main(wrong, stdin=stdin, stdout=stdout, stderr=io.StringIO()), 64)


FIXTURES = pathlib.Path(__file__).parent / "fixtures"


def fixture(name: str) -> list[str]:
    """A fixture's lines, one character a byte, as the command line reads them."""
    return list(air_record.lines_of(io.BytesIO((FIXTURES / name).read_bytes())))


class RecordedTests(unittest.TestCase):
    """0.8 s of `room` on btvirt (2026-11-26: four radios, Alice picking on
    hci1, the iPhone on hci3), `TZ=UTC btmon -t` of the rig's record, and
    hci1's advertising commands from plain `btmon`; each expected output is
    what the awk helpers this module replaced printed for that text."""

    FROM, UNTIL = "05:07:45.100000", "05:07:45.900000"
    # Three of the 20 picks' starts, in ms since the epoch: the last after the excerpt.
    MOMENTS = "1795669665161\n1795669665780\n1795669666410"

    def test_timeline(self):
        self.assertEqual(air_record.timeline(fixture("room.btmon"), "86400"), fixture("room.timeline"))

    def test_unheard(self):
        self.assertEqual(air_record.unheard(fixture("room.btmon"), self.FROM, self.UNTIL), fixture("room.unheard"))

    def test_misses(self):
        self.assertEqual(air_record.misses(fixture("room.btmon"), self.FROM, self.UNTIL), fixture("room.misses"))

    def test_radio_stats(self):
        self.assertEqual(air_record.radio_stats(fixture("room.btmon"), self.FROM, self.UNTIL),
                         fixture("room.radio-stats"))

    def test_first_start_heard(self):
        for listener in ("0", "2"):
            self.assertEqual(air_record.first_start_heard(fixture("room.btmon"), listener, "1", self.MOMENTS),
                             fixture(f"room.first-start-heard-{listener}-1"))

    def test_advertisement(self):
        self.assertEqual(air_record.advertisement(fixture("room-advertising.btmon"), "1"),
                         fixture("room.advertisement"))


if __name__ == "__main__":
    unittest.main()

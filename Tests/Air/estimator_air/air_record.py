"""What the rig's radios did, read from btmon's text of the air record
(`air_record` in Tests/E2E/lib.sh: btmon writing every radio's HCI and
management traffic to a file, read back as `TZ=UTC btmon -t -r FILE`).

A timing miss is only explained by the order of scans, advertising starts
and reports across the radios; the scenarios print the timeline with a
failure, and their steady phases are summed up from it (deaf share,
advertising starts, the longest silence of each peer, announcements one
radio missed of another). The standard library only: the rig's guest runs
it with the host's python3, without the venv.

    python3 -m estimator_air.air_record COMMAND ARGS... <BTMON_TEXT

    timeline SPAN [UNTIL]          what the radios did in the SPAN seconds
                                   before UNTIL, else the record's end
    unheard FROM UNTIL             per radio and advertiser heard, its
                                   longest silence
    misses FROM UNTIL              per pair of radios, announcements of one
                                   the other was deaf to
    radio-stats FROM UNTIL         per radio, the share of time it could not
                                   hear and what it started per minute
    first-start-heard L S MOMENTS  whether hciL could hear hciS's next
                                   advertising start after each moment
    advertisement N                what hciN last put on the air (btmon's
                                   text without -t)

FROM and UNTIL are times of day, HH:MM:SS[.frac] in UTC, as btmon prints
them with -t. The text is read as bytes: names from the air are hostile,
and every line printed is shown as `cat -v` shows it (control and 8-bit
bytes as ^X and M-x), as is every line the summaries read.

The figures are those of the awk programs this module replaced, to the
digit: fields are split at runs of spaces and tabs, and a time that is
not one reads as awk reads a string as a number (its numeric prefix)."""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterable

# ---- reading as awk reads ------------------------------------------------

_NUMERIC_PREFIX = re.compile(r"[ \t\n]*[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_BLANKS = re.compile(r"[ \t\n]+")


def number(text: str) -> float:
    """A string as awk reads it as a number: its numeric prefix, else 0."""
    match = _NUMERIC_PREFIX.match(text)
    return float(match.group()) if match else 0.0


def fields(line: str) -> list[str]:
    """A line's fields as awk splits them by default: at runs of blanks,
    leading and trailing ones ignored."""
    stripped = line.strip(" \t\n")
    return _BLANKS.split(stripped) if stripped else []


def field(parts: list[str], n: int) -> str:
    """awk's $n (1-based): empty past the last field."""
    return parts[n - 1] if n <= len(parts) else ""


def seconds(clock: str) -> float:
    """HH:MM:SS[.frac] as seconds of the day."""
    parts = clock.split(":") + ["", ""]
    return number(parts[0]) * 3600 + number(parts[1]) * 60 + number(parts[2])


def cat_v(text: str) -> str:
    """`cat -v` of a line of bytes (one character a byte): control bytes as
    ^X, DEL as ^?, bytes from 128 as M- and the same for the low seven bits.
    Tabs stay."""
    out = []
    for char in text:
        byte = ord(char)
        if byte >= 128:
            out.append("M-")
            byte -= 128
        if byte == 127:
            out.append("^?")
        elif byte < 32 and byte != 9:
            out.append("^" + chr(byte + 64))
        else:
            out.append(chr(byte))
    return "".join(out)


# ---- the timeline ----------------------------------------------------------

_HEADER = re.compile(r"^[<>@=] ")
_INDEX = re.compile(r"\[hci[0-9]+\]")
_HEADER_TAIL = re.compile(r" +(?:\{0x[0-9a-f]+\} )?\[hci.*$")
# LE Set Random Address and LE Set Advertising Set Random Address, by
# opcode: btmon shortens long command names.
_NEW_ADDRESS = re.compile(r"HCI Command: .*\(0x08\|0x00(?:05|35)\)")
_SCAN = re.compile(r"Extended scan: |Scanning: ")
_ADVERTISING = re.compile(r"Extended advertising: |Advertising: (?:En|Dis)")
_ADDRESS = re.compile(r"(?:[0-9A-F][0-9A-F]:)+[0-9A-F][0-9A-F]")
_NAME = re.compile(r".*Name \((?:complete|short)\): ")


def _events(btmon: Iterable[str]) -> list[tuple[float, str]]:
    """Every event of every radio, in the record's order: its time in
    seconds of the day and its line "TIME hciN WHAT"."""
    events: list[tuple[float, str]] = []
    time = index = kind = address = ""

    def out(text: str) -> None:
        events.append((seconds(time), f"{time} {index} {text}"))

    for line in btmon:
        if _HEADER.match(line):
            parts = fields(line)
            time = parts[-1]
            index = ""
            kind = ("kernel reported " if "Device Found" in line
                    else "to advertise " if "MGMT Command" in line else "controller heard ")
            found = _INDEX.search(line)
            if found:
                index = found.group()[1:-1]
            if "MGMT Command" in line or "MGMT Event: Discovering" in line:
                out(_HEADER_TAIL.sub("", line, count=1))
            if _NEW_ADDRESS.search(line):
                out("new address")
            continue
        if _SCAN.search(line):
            out("scan " + fields(line)[-1])
        if _ADVERTISING.search(line):
            out("advertising " + fields(line)[-1])
        if "Discovery: " in line:
            out("discovering " + fields(line)[-1])
        if "Address: " in line:
            found = _ADDRESS.search(line)
            if found:
                address = found.group()
        if _NAME.match(line):
            out(kind + _NAME.sub("", line, count=1) + " " + address)
        if "Status: " in line and "Success" not in line:
            out(line.lstrip(" "))
    return events


def timeline(btmon: Iterable[str], span: str, until: str = "") -> list[str]:
    """One line per event, for every radio: management commands and the
    discovery state, scan and advertising switched on or off, new random
    addresses, reports heard (name, address) and refused HCI commands, in
    the SPAN seconds before UNTIL or the record's last event; each as
    `cat -v` shows it."""
    events = _events(btmon)
    if not events:
        return []
    end = events[-1][0] if until == "" else seconds(until)
    limit = number(span)
    return [cat_v(line) for at, line in events if at <= end and end - at <= limit]


def _whole_day(btmon: Iterable[str], until: str = "") -> list[list[str]]:
    """The timeline of the day up to UNTIL, each line as its fields: what
    the summaries read."""
    return [fields(line) for line in timeline(btmon, "86400", until)]


def _deafness(deaf: dict[str, bool], parts: list[str]) -> None:
    """A radio is deaf from its scan stop to the kernel's next
    "Discovering", which drops the reports before it."""
    if field(parts, 3) == "scan" and field(parts, 4) == "(0x00)":
        deaf[field(parts, 2)] = True
    elif field(parts, 3) == "discovering" and field(parts, 4) == "(0x01)":
        deaf[field(parts, 2)] = False


# ---- summaries -------------------------------------------------------------

def unheard(btmon: Iterable[str], start: str, until: str) -> list[str]:
    """One line per radio and advertiser it heard between START and UNTIL:
    "hciN NAME LONGEST OVER3 REPORTS". LONGEST is the longest time in
    seconds the kernel passed on no report of NAME (from START to the
    first, between two, from the last to UNTIL), OVER3 how many such
    silences lasted over 3 s (two announcements missed in a row), REPORTS
    how many it passed on. NAME is the name's first word as shown."""
    a, b = seconds(start), seconds(until)
    longest: dict[str, float] = {}
    over: dict[str, int] = {}
    last: dict[str, float] = {}
    reports: dict[str, int] = {}

    def silence(key: str, gap: float) -> None:
        if gap > longest.get(key, 0.0):
            longest[key] = gap
        if gap > 3:
            over[key] = over.get(key, 0) + 1

    for parts in _whole_day(btmon, until):
        if field(parts, 3) != "kernel" or field(parts, 4) != "reported":
            continue
        t = seconds(field(parts, 1))
        if t < a or t > b:
            continue
        key = field(parts, 2) + " " + field(parts, 5)
        silence(key, t - last.get(key, a))
        last[key] = t
        reports[key] = reports.get(key, 0) + 1
    lines = []
    for key in last:
        silence(key, b - last[key])
        lines.append("%s %.2f %d %d" % (key, longest.get(key, 0.0), over.get(key, 0), reports[key]))
    return sorted(lines)


def misses(btmon: Iterable[str], start: str, until: str) -> list[str]:
    """One line per pair of radios between START and UNTIL: "hciL hciA
    BURSTS MISSED AFTER_MISS". BURSTS counts hciA's announcements
    (advertising switched on; those less than 0.3 s apart count as one),
    MISSED those hciL could not hear (deaf at each of the burst's starts),
    AFTER_MISS those missed right after a miss. Two radios whose restarts
    are independent miss one another about as often as the listener is
    deaf, after a miss or not; a coupling shows as AFTER_MISS / MISSED well
    above MISSED / BURSTS."""
    a, b = seconds(start), seconds(until)
    seen: dict[str, None] = {}
    deaf: dict[str, bool] = {}
    open_: dict[str, bool] = {}
    began: dict[str, float] = {}
    heard: set[str] = set()
    bursts: dict[str, int] = {}
    missed: dict[str, int] = {}
    after: dict[str, int] = {}
    last_missed: dict[str, bool] = {}

    def close_burst(speaker: str) -> None:
        for listener in seen:
            if listener == speaker:
                continue
            key = f"{listener} {speaker}"
            bursts[key] = bursts.get(key, 0) + 1
            if key not in heard:
                missed[key] = missed.get(key, 0) + 1
                if last_missed.get(key):
                    after[key] = after.get(key, 0) + 1
                last_missed[key] = True
            else:
                last_missed[key] = False
            heard.discard(key)
        open_[speaker] = False

    for parts in _whole_day(btmon, until):
        t, speaker = seconds(field(parts, 1)), field(parts, 2)
        seen[speaker] = None
        _deafness(deaf, parts)
        if t < a or t > b:
            continue
        if field(parts, 3) == "advertising" and field(parts, 4) == "(0x01)":
            if open_.get(speaker) and t - began[speaker] > 0.3:
                close_burst(speaker)
            if not open_.get(speaker):
                open_[speaker] = True
                began[speaker] = t
            for listener in seen:
                if listener != speaker and not deaf.get(listener):
                    heard.add(f"{listener} {speaker}")
    for speaker in list(open_):
        if open_[speaker]:
            close_burst(speaker)
    return sorted("%s %d %d %d" % (key, count, missed.get(key, 0), after.get(key, 0))
                  for key, count in bursts.items())


def first_start_heard(btmon: Iterable[str], listener: str, speaker: str, moments: str) -> list[str]:
    """For each moment in MOMENTS (milliseconds since the epoch, one a line,
    in order), whether hciLISTENER could hear hciSPEAKER's first advertising
    start at or after it ("heard"), was deaf then ("deaf"), or hciSPEAKER
    started none ("none")."""
    listener, speaker = f"hci{listener}", f"hci{speaker}"
    wanted = [math.fmod(number(m) / 1000, 86400) for m in moments.split("\n")] if moments else []
    deaf: dict[str, bool] = {}
    answers = []
    for parts in _whole_day(btmon):
        _deafness(deaf, parts)
        if field(parts, 2) == speaker and field(parts, 3) == "advertising" and field(parts, 4) == "(0x01)":
            t = seconds(field(parts, 1))
            while len(answers) < len(wanted) and wanted[len(answers)] <= t:
                answers.append("deaf" if deaf.get(listener) else "heard")
    return answers + ["none"] * (len(wanted) - len(answers))


def radio_stats(btmon: Iterable[str], start: str, until: str) -> list[str]:
    """One line per radio between START and UNTIL: "hciN deaf PERCENT starts
    PER_MINUTE addresses PER_MINUTE scans PER_MINUTE". Deaf: from a scan
    stop to the kernel's next "Discovering", as the kernel drops reports
    before it. Starts: advertising switched on, each a rebuild of the set
    (on a legacy controller also the kernel resuming it after a scan) and a
    new device for every scanner. Addresses: new random addresses asked of
    the controller (LE Set Random Address, which a legacy controller's scan
    and advertising share; LE Set Advertising Set Random Address, the set's
    own). Scans: scans switched on."""
    a, b = seconds(start), seconds(until)
    seen: dict[str, None] = {}
    off: dict[str, bool] = {}
    since: dict[str, float] = {}
    deaf: dict[str, float] = {}
    starts: dict[str, int] = {}
    addresses: dict[str, int] = {}
    scans: dict[str, int] = {}

    def deaf_from(radio: str) -> float:
        return since.get(radio, 0.0) if since.get(radio, 0.0) > a else a

    for parts in _whole_day(btmon, until):
        t, radio = seconds(field(parts, 1)), field(parts, 2)
        what = (field(parts, 3), field(parts, 4))
        seen[radio] = None
        if t < a:
            if what == ("scan", "(0x00)"):
                off[radio] = True
            if what == ("discovering", "(0x01)"):
                off[radio] = False
            continue
        if what == ("scan", "(0x00)") and not off.get(radio):
            off[radio], since[radio] = True, t
        if what == ("discovering", "(0x01)") and off.get(radio):
            off[radio] = False
            deaf[radio] = deaf.get(radio, 0.0) + t - deaf_from(radio)
        if what == ("advertising", "(0x01)"):
            starts[radio] = starts.get(radio, 0) + 1
        if what == ("new", "address"):
            addresses[radio] = addresses.get(radio, 0) + 1
        if what == ("scan", "(0x01)"):
            scans[radio] = scans.get(radio, 0) + 1
    lines = []
    for radio in seen:
        if off.get(radio):
            deaf[radio] = deaf.get(radio, 0.0) + b - deaf_from(radio)
        lines.append("%s deaf %.1f starts %.1f addresses %.1f scans %.1f" % (
            radio, 100 * deaf.get(radio, 0.0) / (b - a), 60 * starts.get(radio, 0) / (b - a),
            60 * addresses.get(radio, 0) / (b - a), 60 * scans.get(radio, 0) / (b - a)))
    return sorted(lines)


# ---- what a radio advertises -------------------------------------------------

# The commands that set a radio's advertising parameters, advertising data
# and scan response, legacy and extended, by opcode.
_ADVERTISEMENT_COMMANDS = (
    (re.compile(r"\(0x08\|0x00(?:06|36)\)"), "parameters"),
    (re.compile(r"\(0x08\|0x00(?:08|37)\)"), "advertising data"),
    (re.compile(r"\(0x08\|0x00(?:09|38)\)"), "scan response"),
)
_PARAMETER_LINE = re.compile(r"Type:|legacy|interval")
_FRAMING_LINE = re.compile(r"Handle:|Operation:|Fragment|Length:|length:")


def advertisement(btmon: Iterable[str], index: str) -> list[str]:
    """What hciINDEX last put on the air, as the kernel told the controller:
    the PDU type and interval of its advertising parameters, its
    advertising data and its scan response, btmon's decoding of each on one
    line ("parameters: ...", fields separated by "; "). From btmon's text
    without -t."""
    tag = f"[hci{index}]"
    text: dict[str, str] = {}
    block = ""
    for line in btmon:
        if _HEADER.match(line):
            block = ""
            if line.startswith("< HCI Command: ") and tag in line:
                for opcode, name in _ADVERTISEMENT_COMMANDS:
                    if opcode.search(line):
                        block = name
                if block:
                    text[block] = ""
            continue
        if block == "parameters" and not _PARAMETER_LINE.search(line):
            continue
        if block and not _FRAMING_LINE.search(line):
            stripped = line.lstrip(" ")
            text[block] = stripped if text[block] == "" else text[block] + "; " + stripped
    return [cat_v(f"{name}: {value}") for name, value in sorted(text.items())]


# ---- the command line ------------------------------------------------------

_USAGE = """usage: python3 -m estimator_air.air_record COMMAND ARGS... <BTMON_TEXT
  timeline SPAN [UNTIL] | unheard FROM UNTIL | misses FROM UNTIL |
  radio-stats FROM UNTIL | first-start-heard L S MOMENTS | advertisement N"""

_COMMANDS = {
    "timeline": (timeline, 1, 2),
    "unheard": (unheard, 2, 2),
    "misses": (misses, 2, 2),
    "radio-stats": (radio_stats, 2, 2),
    "first-start-heard": (first_start_heard, 3, 3),
    "advertisement": (advertisement, 1, 1),
}


def lines_of(stream) -> Iterable[str]:
    """A binary stream's lines, one character a byte, without their ends."""
    for raw in stream:
        yield raw.decode("latin-1").rstrip("\n")


def main(argv: list[str], stdin=None, stdout=None, stderr=None) -> int:
    """Runs one command on btmon's text from `stdin` (bytes), printing to
    `stdout` (bytes); 64 (EX_USAGE) for a command line it does not know."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    known = _COMMANDS.get(argv[0]) if argv else None
    if known is None or not known[1] <= len(argv) - 1 <= known[2]:
        print(_USAGE, file=stderr or sys.stderr)
        return 64
    for line in known[0](lines_of(stdin), *argv[1:]):
        stdout.write(line.encode("latin-1") + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

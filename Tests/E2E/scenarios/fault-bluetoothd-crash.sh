# fault-bluetoothd.sh with bluetoothd killed (KILL, a crash)
# instead of stopped. The dead daemon leaves the controller powered and
# scanning: until the kernel ends that scan (DISCOV_LE_TIMEOUT, 10.24 s after
# its last start, so at most 10.24 s after the kill) the controller refuses
# the new random address an advertisement needs, and a new bluetoothd can
# neither register the session's advertisement ("Failed (0x03)") nor start a
# peer's scan. Debian's bluetooth.service has no Restart=: a crashed daemon
# comes back when someone starts it. Here that is 11 s after the crash, once
# the kernel has let go, and from then on the 5 s of the issue hold. A
# bluetoothd started at once waits out the same window: nothing in user
# space ends the dead daemon's scan sooner (docs/MEASUREMENTS.md, Recovery).
# radios: 2
# timeout: 120

signal=KILL
return_after=11
. "$E2E_ROOT/scenarios/fault-bluetoothd.sh"

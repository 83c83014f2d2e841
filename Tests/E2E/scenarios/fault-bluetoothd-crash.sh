# Issue 7: fault-bluetoothd.sh with bluetoothd killed (KILL, a crash)
# instead of stopped. The dead daemon leaves the controller powered and
# scanning: the new one cannot set privacy ("Rejected"), the kernel refuses
# the re-registered advertisement ("Failed (0x03)") until that scan times
# out, and the session retries every second until it is accepted.
# pending: the kernel keeps the dead daemon's scan until its 10.24 s timeout, and neither a new advertisement nor the peer's scan can start before it ends, so "seen again within 5 s of bluetoothd's return" cannot be met when the crash comes early in that scan
# radios: 2
# timeout: 120

signal=KILL
. "$E2E_ROOT/scenarios/fault-bluetoothd.sh"

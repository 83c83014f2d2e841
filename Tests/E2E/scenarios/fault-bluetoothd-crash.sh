# Issue 7: fault-bluetoothd.sh with bluetoothd killed (KILL, a crash)
# instead of stopped. The dead daemon leaves the controller powered and
# scanning: the new one cannot set privacy ("Rejected"), the kernel refuses
# the re-registered advertisement ("Failed (0x03)") until that scan times
# out, and the session retries every 2 s until it is accepted.
# pending: after a crash the peer heard Ann again 1.3-2.2 s after org.bluez returned in most runs but 6.9-18.7 s in others (the controller's leftover scan)
# radios: 2
# timeout: 120

signal=KILL
. "$E2E_ROOT/scenarios/fault-bluetoothd.sh"

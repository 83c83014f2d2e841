# The rooms rig (Tests/E2E/rooms.sh): a laptop per QEMU guest, each with its
# own kernel, system bus, bluetoothd and session, their controllers on one
# shared air (Tests/Air's corrected Bumble controllers, in one process on the
# host). docs/ROOMS.md.
#
#   make e2e-rooms                  three guests: the watcher, Alice and Bob
#   make e2e-rooms STEADY=600       a 10-minute steady phase
#   make e2e-rooms AIR_FLAGS=--legacy   controllers without extended advertising
#
# Three guests of one core each: run it alone on the machine, as `make e2e`.
AIR_FLAGS ?=

.PHONY: e2e-rooms
# python3: the guests' bridge (standard library only).
e2e-rooms: e2e-prepare e2e-build air-venv
	@$(MAKE) --no-print-directory deps-e2e DEBS="python3"
	@E2E_BIN="$(E2E_PATH)" E2E_STEADY="$(STEADY)" E2E_AIR_FLAGS="$(AIR_FLAGS)" Tests/E2E/rooms.sh

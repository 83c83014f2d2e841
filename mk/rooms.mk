# The rooms rig (Tests/E2E/rooms.sh): a laptop per QEMU guest, each with its
# own kernel, system bus, bluetoothd and session, their controllers on one
# shared air (Bumble, in one process on the host). docs/ROOMS.md.
#
#   make e2e-rooms               three guests: the watcher, Alice and Bob
#   make e2e-rooms STEADY=600    a 10-minute steady phase
#
# Three guests of one core each: run it alone on the machine, as `make e2e`.

# Bumble as released, pinned; the guests' bridge needs only python3.
ROOMS_VENV := .venv-rooms
ROOMS_BUMBLE := bumble==0.0.236

.PHONY: e2e-rooms
$(ROOMS_VENV)/bin/python:
	@$(MAKE) --no-print-directory deps-e2e DEBS="python3 python3-venv"
	python3 -m venv $(ROOMS_VENV)
	$(ROOMS_VENV)/bin/pip install -q --disable-pip-version-check $(ROOMS_BUMBLE)

e2e-rooms: e2e-prepare e2e-build $(ROOMS_VENV)/bin/python
	@E2E_BIN="$(E2E_PATH)" E2E_STEADY="$(STEADY)" \
	    E2E_AIR="$(ROOMS_VENV)/bin/python Tests/E2E/rooms/air.py" Tests/E2E/rooms.sh

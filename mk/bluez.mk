# The BlueZ module's real-stack check: Tests/E2E/scenarios/bluez.sh drives
# bluez-probe (Tests/E2E/BlueZProbe) in the VM rig; `make e2e` runs it with the
# other scenarios, `make e2e-bluez` alone.

.PHONY: e2e-bluez e2e-build-bluez-probe
# The guest runs the host's debug build: the probe must be in it too.
e2e-build: e2e-build-bluez-probe
e2e-build-bluez-probe: deps
	$(SWIFT) build --product bluez-probe

e2e-bluez:
	@$(MAKE) --no-print-directory e2e SCENARIOS=Tests/E2E/scenarios/bluez.sh

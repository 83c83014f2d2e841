# The long run: a session with 30 peers changing cards every
# second, against the fake bluetoothd, memory and descriptors printed at the
# start and the end (Tests/Soak/soak.sh). Too long for `make test`.
#
#   make soak                    10 minutes
#   make soak SOAK_SECONDS=60    a shorter run
SOAK_SECONDS ?= 600

.PHONY: soak
soak: deps
	@$(MAKE) --no-print-directory deps-build DEBS="dbus-daemon jq"
	$(SWIFT) build --product estimator
	$(SWIFT) build --product fake-bluez
	Tests/Soak/soak.sh "$$($(SWIFT) build --show-bin-path)" $(SOAK_SECONDS)

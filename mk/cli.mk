# The CLI's own targets: the `pick` benchmark.
#
# `estimator pick 8` against a running session, whole process, against
# /bin/true in the same hyperfine run, with the binary `make build` ships
# (fully static: see RELEASE_FLAGS in the Makefile). The session runs the
# BlueZ radio against a fake org.bluez on a private bus (the fake-bluez
# process prints its address, our DBUS_SYSTEM_BUS_ADDRESS), so no Bluetooth
# is needed. Two ratios:
#   pick-vs-true      wall time: start-up and the control socket round trip
#                     (the session answers once it has the card; the
#                     advertisement update, with scanning paused and a settle
#                     time for bluetoothd, runs after: Session.advertise)
#   pick-cpu-vs-true  user + system time of the pick process: what starting
#                     estimator costs the machine
# and two that split the first, with Benchmarks/Pick/c_pick.c, a static C
# program that makes the same round trip and nothing else:
#   c-pick-vs-true    the session's share: the least any client can take
#   pick-vs-c-pick    the client's share: estimator's start-up and checks
PICK_BENCH_RUNS ?= 30

.PHONY: bench-pick
bench-pick: build
	@$(MAKE) --no-print-directory deps-build DEBS="hyperfine jq dbus-daemon gcc libc6-dev"
	$(SWIFT) build --product fake-bluez
	@mkdir -p $(BENCH_DIR)
	cc -O2 -static -o $(BENCH_DIR)/c_pick Benchmarks/Pick/c_pick.c
	Benchmarks/Pick/run.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/estimator" \
	    "$$($(SWIFT) build --show-bin-path)/fake-bluez" $(BENCH_DIR)/c_pick $(PICK_BENCH_RUNS)

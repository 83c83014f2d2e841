# `make bench`: every benchmark in one run, then a table of their
# RATIO lines (Benchmarks/summary.sh) with the machine and the date. Each
# benchmark compares us with a reference measured in the same run; none is a
# pass/fail test (CI does not run them). The log: .build/bench/bench.log.
#
#   make bench-pick      `estimator pick 8` vs /bin/true          (mk/cli.mk)
#   make bench-session   a session in a room vs bleak             (below)
#   make bench-dbus      D-Bus signal throughput vs C, dbus-fast  (mk/dbus.mk)
#   make bench-table     the live table's redraw vs a full redraw (mk/table.mk)
#   make bench-idle      an idle session's wakeups vs libdbus's floor (below)
BENCHES   := bench-pick bench-session bench-dbus bench-table bench-idle
BENCH_DIR := .build/bench

# bench-session's room, on a fake org.bluez: SESSION_BENCH_PEERS peers, each
# heard every SESSION_BENCH_INTERVAL_MS (one Device1 PropertiesChanged: its
# RSSI), a new card every SESSION_BENCH_CARD_EVERY receptions. BlueZ sends a
# PropertiesChanged per advertising report whose RSSI or data changed (with
# DuplicateData, as both scanners ask); RSSI changes with nearly every report.
# A peer is reported 1-10 times a second: a laptop advertising at the
# kernel's 1.28 s default gives an advertising and a scan-response report per
# event, a phone in the foreground advertises every 20-150 ms. 200 ms is the
# middle of that: 150 signals a second for 30 peers.
SESSION_BENCH_PEERS       ?= 30
SESSION_BENCH_INTERVAL_MS ?= 200
SESSION_BENCH_CARD_EVERY  ?= 50
SESSION_BENCH_SECONDS     ?= 60
SESSION_BENCH_VENV        := $(BENCH_DIR)/venv

.PHONY: bench bench-session bench-idle
bench:
	@mkdir -p $(BENCH_DIR)
	@( $(MAKE) --no-print-directory $(BENCHES) 2>&1; echo $$? >$(BENCH_DIR)/status ) | tee $(BENCH_DIR)/bench.log
	@Benchmarks/summary.sh $(BENCH_DIR)/bench.log
	@exit $$(cat $(BENCH_DIR)/status)

# Our session, bleak's BleakScanner (PyPI) and libdbus's floor (a minimal C
# follower, Benchmarks/SessionCost/c_follower.c) on the same fake bus at the
# same time: CPU time over SESSION_BENCH_SECONDS and resident memory.
bench-session: build
	@$(MAKE) --no-print-directory deps-build DEBS="dbus-daemon python3 python3-venv gcc libc6-dev pkg-config libdbus-1-dev"
	$(SWIFT) build --product fake-bluez
	@mkdir -p $(BENCH_DIR)
	cc -O2 -o $(BENCH_DIR)/c_follower Benchmarks/SessionCost/c_follower.c $$(pkg-config --cflags --libs dbus-1)
	@test -x $(SESSION_BENCH_VENV)/bin/python || python3 -m venv $(SESSION_BENCH_VENV)
	@$(SESSION_BENCH_VENV)/bin/pip install -q --disable-pip-version-check bleak
	Benchmarks/SessionCost/run.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/estimator" \
	    "$$($(SWIFT) build --show-bin-path)/fake-bluez" $(SESSION_BENCH_VENV)/bin/python $(BENCH_DIR)/c_follower \
	    $(SESSION_BENCH_PEERS) $(SESSION_BENCH_INTERVAL_MS) $(SESSION_BENCH_CARD_EVERY) $(SESSION_BENCH_SECONDS)

# bench-idle's rooms, on a fake org.bluez: none at all, then a quiet one of
# IDLE_BENCH_PEERS peers, each heard every IDLE_BENCH_INTERVAL_MS. Context
# switches a second of the session's threads beside the C follower's.
IDLE_BENCH_PEERS       ?= 5
IDLE_BENCH_INTERVAL_MS ?= 1000
IDLE_BENCH_SECONDS     ?= 30

bench-idle: build
	@$(MAKE) --no-print-directory deps-build DEBS="dbus-daemon gcc libc6-dev pkg-config libdbus-1-dev"
	$(SWIFT) build --product fake-bluez
	@mkdir -p $(BENCH_DIR)
	cc -O2 -o $(BENCH_DIR)/c_follower Benchmarks/SessionCost/c_follower.c $$(pkg-config --cflags --libs dbus-1)
	Benchmarks/SessionIdle/run.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/estimator" \
	    "$$($(SWIFT) build --show-bin-path)/fake-bluez" $(BENCH_DIR)/c_follower \
	    $(IDLE_BENCH_PEERS) $(IDLE_BENCH_INTERVAL_MS) $(IDLE_BENCH_SECONDS)

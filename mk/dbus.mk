# D-Bus layer: `make leaks` (LeakSanitizer over the D-Bus tests) and `make
# bench-dbus` (the D-Bus signal benchmark; `make bench` runs it: mk/bench.mk).
# Other areas may add their own prerequisites to `leaks`.

DBUS_BENCH_DIR       := .build/dbus-bench
DBUS_BENCH_COUNT     ?= 200000
DBUS_BENCH_RSS_COUNT ?= 1000000
DBUS_BENCH_ROUNDS    ?= 3
ASAN_BUILD           := .build-asan

.PHONY: bench leaks bench-dbus leaks-dbus
leaks: leaks-dbus

# Ours, a minimal C receiver on libdbus-1 and dbus-fast (PyPI) on one private bus,
# same signals, same run, with the bus's own delivery ceiling beside them; prints
# msgs/s and CPU per message (medians over the rounds), RATIO lines and our resident memory.
bench-dbus: swift-check
	@$(MAKE) --no-print-directory deps-build DEBS="$(BUILD_DEBS) gcc libc6-dev python3 python3-venv"
	$(SWIFT) build $(RELEASE_FLAGS) --product dbus-signal-bench
	@mkdir -p $(DBUS_BENCH_DIR)
	cc -O2 -o $(DBUS_BENCH_DIR)/c_peer Benchmarks/DBusSignals/c_peer.c $$(pkg-config --cflags --libs dbus-1)
	@test -x $(DBUS_BENCH_DIR)/venv/bin/python || python3 -m venv $(DBUS_BENCH_DIR)/venv
	@$(DBUS_BENCH_DIR)/venv/bin/pip install -q --disable-pip-version-check dbus-fast
	Benchmarks/DBusSignals/run.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/dbus-signal-bench" \
	    $(DBUS_BENCH_DIR)/c_peer $(DBUS_BENCH_DIR)/venv/bin/python $(DBUS_BENCH_COUNT) $(DBUS_BENCH_RSS_COUNT) $(DBUS_BENCH_ROUNDS)

# The D-Bus tests built with AddressSanitizer; LeakSanitizer fails the run on any leak.
leaks-dbus: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path $(ASAN_BUILD)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	    $(ASAN_BUILD)/debug/estimatorPackageTests.xctest --testing-library swift-testing --filter '^DBusTests\.'

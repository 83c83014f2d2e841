# The CLI's own targets: the `pick` start-up benchmark (issue 8, item 1).
#
# `estimator pick 8` against a running session, whole process, against
# /bin/true in the same hyperfine run. The session runs the BlueZ radio
# against a fake org.bluez on a private bus (the fake-bluez process prints
# its address, our DBUS_SYSTEM_BUS_ADDRESS), so no Bluetooth is needed; pick
# itself touches no bus. The binary is linked fully static
# (-static-executable): dynamic loading of the libdbus chain costs more than
# the whole pick does.
PICK_BENCH_BUILD := .build-static
PICK_BENCH_BIN   := $(PICK_BENCH_BUILD)/release/estimator

.PHONY: bench-pick
bench-pick: deps
	@$(MAKE) --no-print-directory deps-build DEBS="hyperfine jq dbus-daemon"
	$(SWIFT) build -c release --scratch-path $(PICK_BENCH_BUILD) -Xswiftc -static-executable --product estimator
	$(SWIFT) build --product fake-bluez
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	export XDG_RUNTIME_DIR=$$dir/run XDG_CONFIG_HOME=$$dir/config XDG_STATE_HOME=$$dir/state; \
	mkdir -p $$dir/run; mkfifo $$dir/fake.in $$dir/fake.out; \
	"$$($(SWIFT) build --show-bin-path)/fake-bluez" <$$dir/fake.in >$$dir/fake.out & \
	exec 3>$$dir/fake.in 4<$$dir/fake.out; \
	read -r DBUS_SYSTEM_BUS_ADDRESS <&4; export DBUS_SYSTEM_BUS_ADDRESS; \
	$(PICK_BENCH_BIN) join --channel 1 --name bench >/dev/null; \
	trap '$(PICK_BENCH_BIN) leave >/dev/null; exec 3>&-; wait; rm -rf "$$dir"' EXIT; \
	hyperfine -N --warmup 50 --runs 1000 --export-json $$dir/pick.json "$(PICK_BENCH_BIN) pick 8" /bin/true; \
	jq -r '.results as $$r | "RATIO pick-vs-true \(($$r[0].mean / $$r[1].mean * 100 | round) / 100)"' $$dir/pick.json

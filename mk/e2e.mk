# The real-stack rig (Tests/E2E): estimator on a real kernel, system bus and
# bluetoothd with emulated LE radios, in a QEMU guest. See Tests/E2E/rig.sh.
#
#   make e2e                       every scenario in one boot, on btvirt and then on
#                                  the Bumble model (Tests/Air); fails if any fails
#   make e2e SCENARIOS="Tests/E2E/scenarios/smoke.sh ..."   only those
#   make e2e SCENARIOS=... REPEAT=20   the list 20 times in one boot: pass counts,
#                                  each metric's min/median/p95/max
#   make e2e SCENARIOS=... STEADY=600  a 10-minute steady phase in `room`
#   make e2e SCENARIOS=... CONTROLLER=bumble   on the Bumble model only (named
#                                  scenarios run on btvirt unless told)
#   make demo                      4 radios, Tests/E2E/demo.sh, console live
#   make e2e-prepare               only the cached kernel and initrd (.vm/)

# bluez: bluetoothd, btmgmt, bluetoothctl; bluez-test-tools: btvirt;
# dbus-bin: dbus-send; kmod: depmod for the kernel's modules; jq: the
# hostile-input scenarios check every --json line with it; mosquitto: the
# relay scenario's broker, run inside the guest from the host's /;
# python3: the reader of the air record (Tests/Air/estimator_air/air_record.py),
# standard library only.
E2E_DEBS := qemu-system-x86 busybox-static cpio kmod dbus-daemon dbus-bin bluez bluez-test-tools jq \
	mosquitto mosquitto-clients python3
SCENARIOS ?=
REPEAT ?= 1
STEADY ?= 60
# The controller models, in turn: both for the whole suite (CI), btvirt for
# the scenarios one names, so a targeted run takes the time it always took.
CONTROLLER ?= $(if $(SCENARIOS),btvirt,btvirt bumble)

.PHONY: e2e e2e-prepare e2e-build demo
e2e-prepare:
	@$(MAKE) --no-print-directory deps-e2e DEBS="$(E2E_DEBS)"
	@Tests/E2E/rig.sh prepare

# The guest runs the host's builds over 9p: estimator as it ships (`make
# build`: release, Swift runtime linked in) first on its PATH, then the debug
# folder for test-only programs (bluez-probe). A debug estimator,
# dynamically linked, takes seconds to start in the emulated guest, and
# every pick and leave there starts one.
E2E_PATH = $$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path):$$($(SWIFT) build --show-bin-path)
# `build`: estimator and, beside it, estimator-relay, which the relay
# scenario's sessions start.
e2e-build: build

# The venv on either model: Tests/Air's iPhone model (iphone_advertise)
# runs on btvirt's radios too.
e2e: e2e-prepare e2e-build air-venv
	@E2E_BIN="$(E2E_PATH)" E2E_REPEAT="$(REPEAT)" E2E_STEADY="$(STEADY)" E2E_CONTROLLERS="$(CONTROLLER)" \
	    Tests/E2E/rig.sh suite $(SCENARIOS)

demo: e2e-prepare e2e-build $(if $(filter bumble,$(firstword $(CONTROLLER))),air-venv)
	@E2E_BIN="$(E2E_PATH)" E2E_CONTROLLERS="$(firstword $(CONTROLLER))" Tests/E2E/rig.sh demo

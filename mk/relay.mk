# The relay's benchmark: ROOMS rooms of RELAY_PEOPLE sessions
# without Bluetooth on one local mosquitto, each room picking every 2–3 s,
# against mosquitto_pub → mosquitto_sub on the same broker in the same run
# (Benchmarks/Relay/run.sh says what each figure spans). The release build,
# as it ships: the static estimator and estimator-relay beside it.
RELAY_ROOMS ?= 50
RELAY_PEOPLE ?= 8
RELAY_PICKS ?= 10

.PHONY: bench-relay
bench-relay: build
	@$(MAKE) --no-print-directory deps-test DEBS="mosquitto mosquitto-clients python3 procps"
	Benchmarks/Relay/run.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" $(RELAY_ROOMS) $(RELAY_PEOPLE) $(RELAY_PICKS)

# make fuzz: libFuzzer (with AddressSanitizer) over everything that reads
# bytes from outside. Six targets over one instrumented EstimatorKit:
#   packet   the packet decoder (bytes from the air)
#   name     the terminal sanitiser, display width and the name parser
#   control  the JSON parser and the control-request parser (socket clients)
#   backlog  the backlog reader, with its column options (files people load)
#   relay    the relay's bridge over messages from the broker (its topics
#            and payloads), with the relay sources it needs
#   meeting  the meeting's decoders: a relay payload's split and whole
#            meeting, and one peer's assembler over parts from the air
# Each runs FUZZ_RUNS inputs and must end clean, or, with FUZZ_TIME=S, runs
# for S seconds instead (`make fuzz FUZZ_TIME=600`: ten minutes each).
# Not part of `make test`. Crash inputs land in .build/fuzz/<target>/ for
# replay: .build/fuzz/packet/fuzzer .build/fuzz/packet/crash-…

FUZZ_RUNS     ?= 1000000
FUZZ_TIME     ?=
FUZZ_MAX_TIME ?= 1800
FUZZ_TARGETS  := packet name control backlog relay meeting
FUZZ_DIR      := .build/fuzz
FUZZ_KIT      := $(wildcard Sources/EstimatorKit/*.swift)
SWIFTC        ?= swiftc

# Longest input worth trying: a BLE local name is at most 29 bytes on the
# air (64 leaves room); names and control lines are bounded by the 4 KiB line;
# a backlog's rows and a run of broker messages need no more to reach every
# state of their readers; a meeting's payload is at most 1 KiB.
FUZZ_LEN_packet  := 64
FUZZ_LEN_name    := 256
FUZZ_LEN_control := 4096
FUZZ_LEN_backlog := 4096
FUZZ_LEN_relay   := 1024
FUZZ_LEN_meeting := 1024
FUZZ_DICT_packet  := packet.dict
FUZZ_DICT_name    := packet.dict
FUZZ_DICT_control := control.dict
FUZZ_DICT_backlog := backlog.dict
FUZZ_DICT_relay   := relay.dict
FUZZ_DICT_meeting := meeting.dict

# EstimatorKit is built once, instrumented, as the module every target
# imports; a target's own sources beyond it are compiled with its harness.
# The relay's bridge lives in the relay's executable and imports `Relay`, of
# which it needs three files: they are compiled into the target, and its
# `import Relay` finds an empty module of that name (built under
# $(FUZZ_DIR)/stubs), so the names resolve to the target's own declarations.
FUZZ_SRC_relay   := Sources/Relay/Topic.swift Sources/Relay/BrokerAddress.swift Sources/Relay/BrokerOptions.swift \
                    Sources/estimator-relay/RelayBridge.swift
FUZZ_STUBS_relay := Relay
FUZZ_KIT_DIR     := $(FUZZ_DIR)/EstimatorKit
FUZZ_FLAGS       := -O -sanitize=fuzzer,address -parse-as-library -package-name estimator

# FUZZ_TIME: run for that long (libFuzzer's exit status says whether it found
# anything); otherwise FUZZ_RUNS inputs, which must all run.
ifeq ($(FUZZ_TIME),)
FUZZ_LIMIT  := -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_MAX_TIME)
FUZZ_EXPECT := grep -q '^Done $(FUZZ_RUNS) runs' fuzz.log || { echo "fuzz $$t: stopped before $(FUZZ_RUNS) runs"; exit 1; }
else
FUZZ_LIMIT  := -max_total_time=$(FUZZ_TIME)
FUZZ_EXPECT := true
endif

.PHONY: fuzz $(addprefix fuzz-,$(FUZZ_TARGETS))
fuzz: $(addprefix fuzz-,$(FUZZ_TARGETS))

$(addprefix fuzz-,$(FUZZ_TARGETS)): fuzz-%: $(FUZZ_DIR)/%/fuzzer
	@t=$*; cd $(FUZZ_DIR)/$$t && mkdir -p corpus && cp ../../../Fuzz/seeds/$$t/* corpus/ && \
	  echo "fuzz $$t: $(if $(FUZZ_TIME),$(FUZZ_TIME) s,$(FUZZ_RUNS) inputs)" && \
	  ./fuzzer $(FUZZ_LIMIT) -max_len=$(FUZZ_LEN_$*) -timeout=10 -dict=../../../Fuzz/$(FUZZ_DICT_$*) \
	    -print_final_stats=1 corpus > fuzz.log 2>&1; status=$$?; \
	  grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' fuzz.log | sed "s/^/fuzz $$t: /"; \
	  if [ $$status -ne 0 ]; then tail -n 40 fuzz.log; echo "fuzz $$t: failed (see $(FUZZ_DIR)/$$t/fuzz.log)"; exit 1; fi; \
	  $(FUZZ_EXPECT)

# The Swift toolchain ships libFuzzer, the ASan runtimes and lld (gold warns
# about every ASan helper symbol); nothing else to install.
$(FUZZ_KIT_DIR)/.built: $(FUZZ_KIT) | swift-check
	@mkdir -p $(@D)
	cd $(@D) && $(SWIFTC) $(FUZZ_FLAGS) -module-name EstimatorKit -emit-module -emit-library -static \
	    -emit-module-path EstimatorKit.swiftmodule -o libEstimatorKit.a $(addprefix $(CURDIR)/,$(FUZZ_KIT))
	@touch $@

$(FUZZ_DIR)/%/fuzzer: Fuzz/%.swift Fuzz/Checks.swift $(FUZZ_KIT_DIR)/.built $(FUZZ_DIR)/stubs/.built
	@mkdir -p $(@D)
	$(SWIFTC) $(FUZZ_FLAGS) -module-name EstimatorFuzz -use-ld=lld -I $(FUZZ_KIT_DIR) -I $(FUZZ_DIR)/stubs \
	    -L $(FUZZ_KIT_DIR) -lEstimatorKit $(FUZZ_SRC_$*) Fuzz/Checks.swift Fuzz/$*.swift -o $@

$(FUZZ_DIR)/relay/fuzzer: $(FUZZ_SRC_relay)

$(FUZZ_DIR)/stubs/.built: mk/fuzz.mk | swift-check
	@mkdir -p $(@D) && : > $(@D)/empty.swift
	@for module in $(FUZZ_STUBS_relay); do \
	  $(SWIFTC) -emit-module -parse-as-library -module-name $$module -emit-module-path $(@D)/$$module.swiftmodule \
	    $(@D)/empty.swift || exit 1; \
	done
	@touch $@

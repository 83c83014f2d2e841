# make fuzz: libFuzzer (with AddressSanitizer) over everything that reads
# bytes from outside. Six targets over libraries built once, instrumented:
#   packet   the packet decoder (bytes from the air)
#   name     the terminal sanitiser, display width and the name parser
#   control  the JSON parser and the control-request parser (socket clients)
#   backlog  the backlog reader, with its column options (files people load)
#   relay    the relay's bridge over messages from the broker (its topics
#            and payloads)
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

# Each library a target imports is built once, instrumented, into
# $(FUZZ_DIR)/<module> from its Sources folder, after those it imports:
# EstimatorKit for every target, the relay's bridge with the broker
# client's module (its topics and messages) for `relay`. A target links
# its own libraries (FUZZ_LIBS_<target>, each before those it uses), then
# EstimatorKit.
FUZZ_MODULES             := EstimatorKit Retry Relay RelayBridging
FUZZ_DEPS_Relay          := Retry
FUZZ_DEPS_RelayBridging  := EstimatorKit Relay
FUZZ_LIBS_relay          := RelayBridging Relay Retry
FUZZ_INCLUDES            := $(foreach module,$(FUZZ_MODULES),-I $(CURDIR)/$(FUZZ_DIR)/$(module)) -I $(CURDIR)/Sources/CMosquitto
FUZZ_FLAGS               := -O -sanitize=fuzzer,address -parse-as-library -package-name estimator

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
define fuzz_module
$(FUZZ_DIR)/$(1)/.built: $(wildcard Sources/$(1)/*.swift) $(foreach dep,$(FUZZ_DEPS_$(1)),$(FUZZ_DIR)/$(dep)/.built) | swift-check
	@mkdir -p $$(@D)
	cd $$(@D) && $(SWIFTC) $(FUZZ_FLAGS) -module-name $(1) -emit-module -emit-library -static $(FUZZ_INCLUDES) \
	    -emit-module-path $(1).swiftmodule -o lib$(1).a $(addprefix $(CURDIR)/,$(wildcard Sources/$(1)/*.swift))
	@touch $$@
endef
$(foreach module,$(FUZZ_MODULES),$(eval $(call fuzz_module,$(module))))

$(FUZZ_DIR)/%/fuzzer: Fuzz/%.swift Fuzz/Checks.swift $(FUZZ_DIR)/EstimatorKit/.built
	@mkdir -p $(@D)
	$(SWIFTC) $(FUZZ_FLAGS) -module-name EstimatorFuzz -use-ld=lld $(FUZZ_INCLUDES) \
	    $(foreach lib,$(FUZZ_LIBS_$*) EstimatorKit,-L $(FUZZ_DIR)/$(lib) -l$(lib)) Fuzz/Checks.swift Fuzz/$*.swift -o $@

$(FUZZ_DIR)/relay/fuzzer: $(FUZZ_DIR)/RelayBridging/.built

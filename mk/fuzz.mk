# make fuzz: libFuzzer (with AddressSanitizer) over everything that reads
# bytes from the air: Packet decoding, TerminalText, name parsing, JSON
# quoting. A bounded run of FUZZ_RUNS inputs that must end clean; it fails if
# libFuzzer finds a crash or stops before FUZZ_RUNS (time limit reached).
# Not part of `make test`. Crash inputs land in .build/fuzz/ for replay:
#   .build/fuzz/packet-fuzzer .build/fuzz/crash-…

FUZZ_RUNS      ?= 1000000
FUZZ_MAX_TIME  ?= 1800
FUZZ_DIR       := .build/fuzz
FUZZ_BIN       := $(FUZZ_DIR)/packet-fuzzer
FUZZ_SOURCES   := $(wildcard Sources/EstimatorKit/*.swift) Fuzz/PacketFuzzer.swift
SWIFTC         ?= swiftc

.PHONY: fuzz
fuzz: $(FUZZ_BIN)
	@mkdir -p $(FUZZ_DIR)/corpus
	@cp Fuzz/seeds/* $(FUZZ_DIR)/corpus/
	@echo "fuzzing $(FUZZ_RUNS) inputs (at most $(FUZZ_MAX_TIME) s)"
	@cd $(FUZZ_DIR) && ./packet-fuzzer -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_MAX_TIME) \
	    -max_len=64 -timeout=10 -dict=../../Fuzz/packet.dict -print_final_stats=1 \
	    corpus > fuzz.log 2>&1; status=$$?; \
	  grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' fuzz.log; \
	  if [ $$status -ne 0 ]; then tail -n 40 fuzz.log; echo "fuzz: failed (see $(FUZZ_DIR)/fuzz.log)"; exit 1; fi; \
	  grep -q '^Done $(FUZZ_RUNS) runs' fuzz.log || { echo "fuzz: stopped before $(FUZZ_RUNS) runs"; exit 1; }

# The Swift toolchain ships libFuzzer, the ASan runtimes and lld (gold warns
# about every ASan helper symbol); nothing else to install.
$(FUZZ_BIN): $(FUZZ_SOURCES)
	@mkdir -p $(FUZZ_DIR)
	$(SWIFTC) -O -sanitize=fuzzer,address -parse-as-library -module-name EstimatorFuzz -use-ld=lld \
	    $(FUZZ_SOURCES) -o $@

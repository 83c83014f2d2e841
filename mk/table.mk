# The live table: redrawing 100 peers with one card
# changed, against a full redraw measured in the same run. Prints µs per
# frame, bytes per update and RATIO lines.
.PHONY: bench-table
bench-table: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product table-bench
	"$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/table-bench"


# Man pages: Tools/ManualPages writes one mdoc(7) page per
# visible command from `estimator --experimental-dump-help` (ArgumentParser's
# generate-manual plugin keeps ASCII only and lists hidden commands).
#
#   make man         the pages in $(MAN_DIR), from the debug build
#   make man-check   make man, then Tests/Scripts/man-check.sh (run by `make test`)
#
# `make install` and `make deb` pass MAN_ESTIMATOR, the binary they ship.
MAN_DIR       ?= .build/man
MAN_ESTIMATOR ?=
export MAN_ESTIMATOR
MAN_DEBS      := man-db groff-base

.PHONY: man man-check
man: deps
	$(SWIFT) build --product manual-pages
	@if [ -z "$(MAN_ESTIMATOR)" ]; then $(SWIFT) build --product estimator; fi
	rm -rf $(MAN_DIR)
	mkdir -p $(MAN_DIR)
	bin="$$($(SWIFT) build --show-bin-path)"; \
	  "$${MAN_ESTIMATOR:-$$bin/estimator}" --experimental-dump-help | "$$bin/manual-pages" $(MAN_DIR)

man-check: man
	@$(MAKE) --no-print-directory deps-man DEBS="$(MAN_DEBS)"
	Tests/Scripts/man-check.sh $(MAN_DIR)

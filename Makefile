# estimator — build, test, install. Every target installs the Debian
# packages it needs itself, so a fresh Debian 12 machine needs nothing else.

PREFIX ?= /usr/local
SWIFT  ?= swift
# CI and the VM rig share the host's build; keep the debug and release
# products apart so neither rebuilds the other.
# The shipped binary is fully static (libdbus-1, libbluetooth, the Swift
# runtime, libstdc++, glibc): `estimator pick` starts without loading the
# shared libdbus-1 -> libsystemd chain, a quarter of the CPU time (`make
# bench-pick`; docs/MEASUREMENTS.md, pick). Sources/CNoSocketActivation
# stands in for the two libsystemd calls of libdbus-1.a.
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -static-executable
# estimator-relay links libmosquitto, which Debian ships only as a shared
# library (docs/ARCHITECTURE.md, Relay): the Swift runtime is linked in, the
# rest is not. Its own scratch path, so the two builds' flags never make
# each other recompile; `build` puts it beside estimator, where the session
# looks for it.
RELAY_FLAGS := -c release --static-swift-stdlib --scratch-path .build/relay

# Debian packages needed to build and to run the D-Bus tests.
BUILD_DEBS := pkg-config libdbus-1-dev libbluetooth-dev dbus-daemon libmosquitto-dev
# The relay tests' broker, its clients, and openssl for their test CA.
TEST_DEBS := mosquitto mosquitto-clients openssl

.PHONY: all build test fuzz install deps clean swift-check
all: build

# Building needs a Swift toolchain, which Debian does not package: every
# target that builds checks for one first and says where it comes from.
# Package.swift's tools version is the oldest Swift that reads it.
SWIFT_NEEDED := 6.1
swift-check:
	@version=$$($(SWIFT) --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1); \
	if [ -z "$$version" ]; then \
	  echo "make: building estimator needs Swift $(SWIFT_NEEDED) or later, and '$(SWIFT)' is not found: install a toolchain from https://www.swift.org/install/linux/ (Debian does not package Swift) and put its usr/bin on PATH, or set SWIFT=/path/to/swift." >&2; exit 69; \
	elif [ "$$(printf '%s\n' $(SWIFT_NEEDED) $$version | sort -V | head -n 1)" != $(SWIFT_NEEDED) ]; then \
	  echo "make: building estimator needs Swift $(SWIFT_NEEDED) or later, and '$(SWIFT)' is Swift $$version: install a newer toolchain from https://www.swift.org/install/linux/ and put its usr/bin on PATH, or set SWIFT=/path/to/swift." >&2; exit 69; \
	fi

# Installs what is missing, once per package set; apt-get update only when needed.
deps-%:
	@missing=""; for p in $(DEBS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing >/dev/null; \
	fi

deps: swift-check
	@$(MAKE) --no-print-directory deps-build DEBS="$(BUILD_DEBS)"

build: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product estimator
	$(SWIFT) build $(RELAY_FLAGS) --product estimator-relay
	install -m 0755 "$$($(SWIFT) build $(RELAY_FLAGS) --show-bin-path)/estimator-relay" \
	    "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/estimator-relay"

test: deps
	@$(MAKE) --no-print-directory deps-test DEBS="$(TEST_DEBS)"
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@Tests/Scripts/swift-check.sh
	@$(MAKE) --no-print-directory man-check
	@$(MAKE) --no-print-directory air-test

# Binary, shell completions and man pages under $(DESTDIR)$(PREFIX).
install: build
	$(eval BIN := $(shell $(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/estimator)
	rm -rf .build/completions .build/man
	mkdir -p .build/completions .build/man
	# Sourced, not run: no #! line (lintian: bash-completion-with-hashbang).
	"$(BIN)" --generate-completion-script bash | sed '1{/^#!/d}' > .build/completions/estimator
	"$(BIN)" --generate-completion-script zsh  > .build/completions/_estimator
	"$(BIN)" --generate-completion-script fish > .build/completions/estimator.fish
	$(MAKE) --no-print-directory man MAN_ESTIMATOR="$(BIN)"
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	    $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	    $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 "$(BIN)" $(DESTDIR)$(PREFIX)/bin/estimator
	install -m 0755 "$(BIN)-relay" $(DESTDIR)$(PREFIX)/bin/estimator-relay
	install -m 0644 .build/completions/estimator $(DESTDIR)$(PREFIX)/share/bash-completion/completions/estimator
	install -m 0644 .build/completions/_estimator $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_estimator
	install -m 0644 .build/completions/estimator.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/estimator.fish
	install -m 0644 .build/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf .build

# Each area adds its targets in its own file (fuzzing, D-Bus leaks and
# benchmarks, the VM rig), so the areas evolve without touching this one.
include $(wildcard mk/*.mk)

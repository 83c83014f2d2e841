# estimator — build, test, install. Every target installs the Debian
# packages it needs itself, so a fresh Debian 12 machine needs nothing else.

PREFIX ?= /usr/local
SWIFT  ?= swift
# CI and the VM rig share the host's build; keep the debug and release
# products apart so neither rebuilds the other.
RELEASE_FLAGS := -c release --static-swift-stdlib

# Debian packages needed to build and to run the D-Bus tests.
BUILD_DEBS := pkg-config libdbus-1-dev libbluetooth-dev dbus-daemon

.PHONY: all build test fuzz install deps clean
all: build

# Installs what is missing, once per package set; apt-get update only when needed.
deps-%:
	@missing=""; for p in $(DEBS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing >/dev/null; \
	fi

deps:
	@$(MAKE) --no-print-directory deps-build DEBS="$(BUILD_DEBS)"

build: deps
	$(SWIFT) build $(RELEASE_FLAGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/estimator" $(DESTDIR)$(PREFIX)/bin/estimator
	bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/estimator"; \
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d; \
	"$$bin" --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/estimator; \
	"$$bin" --generate-completion-script zsh  > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_estimator; \
	"$$bin" --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/estimator.fish
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --multi-page -o .build/man >/dev/null 2>&1 || true

clean:
	rm -rf .build

# Each area adds its targets in its own file (fuzzing, D-Bus leaks and
# benchmarks, the VM rig), so the areas evolve without touching this one.
include $(wildcard mk/*.mk)

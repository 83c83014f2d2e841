# The archive a team passes around to people without a Swift toolchain:
# the static estimator, estimator-relay, man pages, shell completions and
# Packaging/dist/install.sh. The .deb (mk/deb.mk) is the other way in.
#
#   make dist         estimator-<version>-linux-<machine>.tar.gz in this folder
#   make dist-check   the archive installed, run and removed on this machine
#                     (Debian 12), then the archive and the .deb in a clean
#                     Debian 13 root made with debootstrap
#                     (Tests/Scripts/dist-check.sh). As root: it chroots.
DIST_NAME       := estimator-$(DEB_VERSION)-linux-$(shell uname -m)
DIST_FILE       := $(DIST_NAME).tar.gz
DIST_DIR        := .build/dist
DIST_SUITE      ?= trixie
DIST_MIRROR     ?= http://deb.debian.org/debian
DIST_CHECK_DEBS := debootstrap man-db groff-base

.PHONY: dist dist-check
dist: build
	rm -rf $(DIST_DIR)/stage
	SOURCE_DATE_EPOCH=$(DEB_EPOCH) $(MAKE) --no-print-directory install DESTDIR="$(CURDIR)/$(DIST_DIR)/stage" PREFIX=/$(DIST_NAME)
	strip --remove-section=.comment --remove-section=.note $(DIST_DIR)/stage/$(DIST_NAME)/bin/estimator
	strip --strip-unneeded --remove-section=.comment --remove-section=.note $(DIST_DIR)/stage/$(DIST_NAME)/bin/estimator-relay
	install -m 0755 Packaging/dist/install.sh $(DIST_DIR)/stage/$(DIST_NAME)/install.sh
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(DEB_EPOCH) -C $(DIST_DIR)/stage -cf - $(DIST_NAME) \
	    | gzip -9n > $(DIST_FILE)

dist-check: dist deb
	@$(MAKE) --no-print-directory deps-dist DEBS="$(DIST_CHECK_DEBS)"
	flock /tmp/estimator-deb.lock Tests/Scripts/dist-check.sh $(DIST_FILE) $(DEB_FILE) $(DEB_VERSION) \
	    $(DIST_SUITE) $(DIST_MIRROR) $(DIST_DIR)/$(DIST_SUITE)

# The Debian package: `make deb` stages `make install` under
# /usr, adds what Debian asks of a package (copyright, changelog.gz as a
# native package's, gzipped man pages, zsh's vendor folder, the lintian
# override for the static binary) and builds estimator_<version>_<arch>.deb
# in this folder with dpkg-deb --root-owner-group (no fakeroot needed).
#
#   make deb         the .deb
#   make deb-check   the .deb, lintian (no errors), then Tests/Scripts/deb-check.sh:
#                    dpkg -i, estimator --version, man -w, dpkg -r, nothing left.
#                    Installs on this machine, so run as root or with sudo; one
#                    at a time (flock), since it changes /usr.
DEB_VERSION    := $(shell sed -n 's/^ *static let version = "\(.*\)"$$/\1/p' Sources/estimator/Estimator.swift)
DEB_ARCH       := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB_FILE       := estimator_$(DEB_VERSION)_$(DEB_ARCH).deb
DEB_DIR        := .build/deb
DEB_ROOT       := $(DEB_DIR)/root
DEB_MAINTAINER ?= $(shell git log -1 --format='%an <%ae>')
# The last commit's time: the same tree gives the same package (man page
# dates, changelog, file times).
DEB_EPOCH      := $(shell git log -1 --format=%ct)
DEB_CHECK_DEBS := lintian man-db groff-base

.PHONY: deb deb-check
deb: build
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_ROOT)/DEBIAN $(DEB_ROOT)/usr/share/doc/estimator
	SOURCE_DATE_EPOCH=$(DEB_EPOCH) $(MAKE) --no-print-directory install DESTDIR="$(CURDIR)/$(DEB_ROOT)" PREFIX=/usr
	mv $(DEB_ROOT)/usr/share/zsh/site-functions $(DEB_ROOT)/usr/share/zsh/vendor-completions
	strip --remove-section=.comment --remove-section=.note $(DEB_ROOT)/usr/bin/estimator
	strip --strip-unneeded --remove-section=.comment --remove-section=.note $(DEB_ROOT)/usr/bin/estimator-relay
	gzip -9n $(DEB_ROOT)/usr/share/man/man1/*.1
	install -m 0644 Packaging/deb/copyright $(DEB_ROOT)/usr/share/doc/estimator/copyright
	{ echo "estimator ($(DEB_VERSION)) unstable; urgency=medium"; echo; \
	  echo "  * Built from commit $$(git rev-parse --short HEAD)."; echo; \
	  echo " -- $(DEB_MAINTAINER)  $$(date -u -R -d @$(DEB_EPOCH))"; } \
	  | gzip -9n > $(DEB_ROOT)/usr/share/doc/estimator/changelog.gz
	install -d $(DEB_ROOT)/usr/share/lintian/overrides
	install -m 0644 Packaging/deb/lintian-overrides $(DEB_ROOT)/usr/share/lintian/overrides/estimator
	sed -e 's/@VERSION@/$(DEB_VERSION)/' -e 's/@ARCH@/$(DEB_ARCH)/' -e 's/@MAINTAINER@/$(DEB_MAINTAINER)/' \
	    -e "s/@SIZE@/$$(du -sk --exclude=DEBIAN $(DEB_ROOT) | cut -f1)/" Packaging/deb/control > $(DEB_ROOT)/DEBIAN/control
	cd $(DEB_ROOT) && find usr -type f | LC_ALL=C sort | xargs md5sum > DEBIAN/md5sums
	find $(DEB_ROOT) -type d -exec chmod 0755 {} +
	find $(DEB_ROOT) -type f ! -path '*/bin/*' -exec chmod 0644 {} +
	find $(DEB_ROOT) -exec touch -h -d @$(DEB_EPOCH) {} +
	SOURCE_DATE_EPOCH=$(DEB_EPOCH) dpkg-deb --root-owner-group -Zxz --build $(DEB_ROOT) $(DEB_FILE)

deb-check: deb
	@$(MAKE) --no-print-directory deps-deb DEBS="$(DEB_CHECK_DEBS)"
	lintian --fail-on error --info $(DEB_FILE)
	flock /tmp/estimator-deb.lock Tests/Scripts/deb-check.sh $(DEB_FILE) $(DEB_VERSION)

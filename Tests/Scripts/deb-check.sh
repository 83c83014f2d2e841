#!/usr/bin/env bash
# The .deb's round trip on this machine (mk/deb.mk, run by .ci/run):
# install it with dpkg -i, run estimator --version and man -w from it,
# remove it with dpkg -r, and check that nothing it installed is left.
#
#   Tests/Scripts/deb-check.sh estimator_<version>_<arch>.deb VERSION
set -euo pipefail
deb=$1 version=$2
fail() { echo "deb-check: $*" >&2; exit 1; }
if [ "$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi

# Never replace or remove an estimator someone installed on purpose.
if dpkg-query -W -f='${Status}' estimator 2>/dev/null | grep -q "ok installed"; then
  fail "estimator is installed on this machine already; remove it first (sudo dpkg -r estimator)"
fi
files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }')

$sudo dpkg -i "$deb" >/dev/null
trap '$sudo dpkg -r estimator >/dev/null 2>&1 || true' EXIT
[ "$(/usr/bin/estimator --version)" = "$version" ] || fail "estimator --version says '$(/usr/bin/estimator --version)', not $version"
[ "$(man -w estimator)" = /usr/share/man/man1/estimator.1.gz ] || fail "man -w estimator: $(man -w estimator 2>&1)"
[ "$(man -w estimator.join)" = /usr/share/man/man1/estimator.join.1.gz ] || fail "man -w estimator.join: $(man -w estimator.join 2>&1)"
for file in $files; do [ -e "$file" ] || fail "$file is in the package but not installed"; done

$sudo dpkg -r estimator >/dev/null
trap - EXIT
status=$(dpkg-query -W -f='${db:Status-Abbrev}' estimator 2>/dev/null || true)
[ -z "$status" ] || [ "${status:0:2}" = "un" ] || fail "dpkg still records estimator after dpkg -r: '$status'"
for file in $files; do [ ! -e "$file" ] || fail "$file is left after dpkg -r"; done
[ ! -e /usr/share/doc/estimator ] || fail "/usr/share/doc/estimator is left after dpkg -r"
echo "deb-check: $deb installs $(echo "$files" | wc -l) files, runs estimator $version, man -w finds its pages, removes cleanly"

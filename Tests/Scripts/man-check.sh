#!/usr/bin/env bash
# Checks the generated man pages (mk/man.mk): every visible command has one
# and the hidden `session` none; text beyond ASCII survives, in the source
# and as man renders it; SEE ALSO never names the hidden command; every
# page has ENVIRONMENT and FILES; EXIT STATUS is the sysexits table; man(1)
# finds nothing to warn about.
#
#   Tests/Scripts/man-check.sh MAN_DIR
set -euo pipefail
dir=$1
fail() { echo "man-check: $*" >&2; exit 1; }

for page in estimator estimator.join estimator.pick estimator.round estimator.reveal estimator.settle estimator.watch \
            estimator.status estimator.leave estimator.doctor estimator.config estimator.packet estimator.packet.encode estimator.packet.decode \
            estimator.backlog estimator.history; do
  [ -s "$dir/$page.1" ] || fail "no page $page.1"
done
for hidden in estimator.session.1 estimator.help.1; do
  [ ! -e "$dir/$hidden" ] || fail "$hidden is generated for a command people do not use"
done
! grep -l "session 1" "$dir"/*.1 | grep . || fail "a SEE ALSO names the hidden session command"

grep -q "전수열" "$dir/estimator.join.1" || fail "전수열 is missing from estimator.join.1"
grep -q "☕" "$dir/estimator.pick.1" || fail "☕ is missing from estimator.pick.1"

for page in "$dir"/*.1; do
  # Every code estimator exits with: success and UserError.Code's.
  for code in 0 $(sed -n 's/^ *case [a-zA-Z]* = \([0-9]*\)$/\1/p' "$(dirname "$0")/../../Sources/EstimatorKit/UserError.swift"); do
    grep -qx "\.It $code" "$page" || fail "$(basename "$page"): EXIT STATUS does not list $code"
  done
  ! grep -q "^\.Ex" "$page" || fail "$(basename "$page"): the generic EXIT STATUS text"
  grep -qx '\.It Pa $XDG_CONFIG_HOME/estimator/config.json' "$page" || fail "$(basename "$page"): FILES does not list config.json"
  grep -qx '\.It Ev ESTIMATOR_RELAY_PASSWORD' "$page" || fail "$(basename "$page"): ENVIRONMENT does not list ESTIMATOR_RELAY_PASSWORD"
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 "$page" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "$(basename "$page"): $warnings"
done

rendered=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -E UTF-8 -l "$dir/estimator.join.1" "$dir/estimator.pick.1" 2>&1)
[[ $rendered == *"joined channel 1 as 전수열 on hci0"* ]] || fail "man does not render 전수열"
[[ $rendered == *"☕"* ]] || fail "man does not render ☕"
echo "man-check: $(ls "$dir"/*.1 | wc -l) pages, UTF-8 kept, ENVIRONMENT and FILES, sysexits table, no hidden command"

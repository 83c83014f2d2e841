#!/bin/bash
# `estimator pick 8` against a running session vs /bin/true, one hyperfine
# run (`make bench-pick`). The session runs against the fake
# org.bluez of FAKE_BLUEZ on a private bus, in a throw-away XDG environment.
# C_PICK (c_pick.c) makes the same round trip with nothing else, so the
# session's share of the time and the client's are apart.
#
#   run.sh ESTIMATOR FAKE_BLUEZ C_PICK RUNS
set -euo pipefail
bin=$1 fake=$2 c_pick=$3 runs=$4

source "$(dirname "$0")/../../Tests/Scripts/start-fake-bluez.sh"
dir=$(mktemp -d)
fake_bluez_start "$fake" "$dir"
trap '"$bin" leave >/dev/null || true; exec 3>&-; wait; rm -rf "$dir"' EXIT
"$bin" join --channel 1 --name bench >/dev/null

# A second between picks, as between a person's picks: the session announces
# each change again 0.5 s later (BlueZRadio.reannounceAfter), with scanning
# paused, so each pick's radio work is done before the next.
hyperfine -N --warmup 3 --runs "$runs" --prepare "sleep 1" --export-json "$dir/pick.json" "$bin pick 8" /bin/true \
    "$c_pick $XDG_RUNTIME_DIR/estimator/hci0.sock 8"
jq -r '
  def ms: . * 100000 | round / 100;
  def x: . * 100 | round / 100;
  .results as [$pick, $true, $c]
  | "pick: \($pick.mean | ms) ms wall, \($pick.user + $pick.system | ms) ms CPU; /bin/true: \($true.mean | ms) ms wall, \($true.user + $true.system | ms) ms CPU; c_pick: \($c.mean | ms) ms wall",
    "RATIO pick-vs-true \($pick.mean / $true.mean | x)",
    "RATIO pick-cpu-vs-true \(($pick.user + $pick.system) / ($true.user + $true.system) | x)",
    "RATIO c-pick-vs-true \($c.mean / $true.mean | x)",
    "RATIO pick-vs-c-pick \($pick.mean / $c.mean | x)"
' "$dir/pick.json"

#!/usr/bin/env bash
# The long run: a session in channel 1 with 30 peers, each
# changing its card every second, for SECONDS seconds, against the fake
# bluetoothd (fake-bluez's `advertisers` command) on a private bus, with a
# `watch --json` attached. The session's and the watch's resident memory and
# open descriptors are printed at the start (after a warm-up), every minute
# and at the end; the run fails unless descriptors stay the same and memory
# grows by less than 10 % (and 4 MiB), the session still counts the 30
# peers, and every line the watch printed is valid JSON.
#
#   soak.sh BIN_DIR [SECONDS]     BIN_DIR holds estimator and fake-bluez
set -euo pipefail

bin=$1 seconds=${2:-600}
warmup=20
dir=$(mktemp -d)
export LC_ALL=C.UTF-8
fake_pid= watch_pid=
finish() {
  "$bin/estimator" leave >/dev/null 2>&1 || true
  [ -z "$watch_pid" ] || wait "$watch_pid" 2>/dev/null || true
  exec 3>&- 2>/dev/null || true
  [ -z "$fake_pid" ] || wait "$fake_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap finish EXIT
fail() { echo "soak: FAIL: $*" >&2; exit 1; }

source "$(dirname "$0")/../Scripts/start-fake-bluez.sh"
fake_bluez_start "$bin/fake-bluez" "$dir" || fail "fake-bluez did not start"

"$bin/estimator" join --channel 1 --name Soak >/dev/null
session=$("$bin/estimator" status | sed -n 's/^session pid \([0-9]*\).*/\1/p')
"$bin/estimator" pick 5 >/dev/null
"$bin/estimator" watch --json >"$dir/watch.json" 2>"$dir/watch.err" &
watch_pid=$!
echo "advertisers 30 1000 1 1" >&3
read -r -t 10 answer <&4 || fail "fake-bluez did not answer the advertisers command"
[[ $answer == ok* ]] || fail "fake-bluez: $answer"

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
fds() { ls "/proc/$1/fd" | wc -l; }
sample() { # label: one line of figures
  printf 'soak: %-6s %4ss  session rss %6s kB fds %3s   watch rss %6s kB fds %3s\n' \
    "$1" "$2" "$(rss_kb "$session")" "$(fds "$session")" "$(rss_kb "$watch_pid")" "$(fds "$watch_pid")"
}

sleep "$warmup"  # the table fills and allocations settle: the baseline is taken after
start_rss=$(rss_kb "$session") start_fds=$(fds "$session")
start_wrss=$(rss_kb "$watch_pid") start_wfds=$(fds "$watch_pid")
cards_before=$(grep -c '"event":"card"' "$dir/watch.json" || true)
sample start 0
began=$SECONDS
while [ $((SECONDS - began)) -lt "$seconds" ]; do
  left=$((seconds - (SECONDS - began)))
  sleep $((left < 60 ? left : 60))  # the run's length is the point: sampling once a minute
  kill -0 "$session" 2>/dev/null || fail "the session died"
  kill -0 "$watch_pid" 2>/dev/null || fail "the watch died: $(cat "$dir/watch.err")"
  sample minute $((SECONDS - began))
done
end_rss=$(rss_kb "$session") end_fds=$(fds "$session")
end_wrss=$(rss_kb "$watch_pid") end_wfds=$(fds "$watch_pid")
sample end $((SECONDS - began))

status=$("$bin/estimator" status)
echo "soak: status: ${status//$'\n'/ / }"
[[ $status == *"30 people heard in channel 1"* ]] || fail "the session does not count the 30 peers"
lines=$(wc -l <"$dir/watch.json")
cards=$(($(grep -c '"event":"card"' "$dir/watch.json" || true) - cards_before))
echo "soak: watch printed $lines JSON lines, $cards card changes in the $seconds s measured"
jq -c . "$dir/watch.json" >/dev/null || fail "the watch printed a line that is not JSON"
[ "$cards" -ge $((30 * seconds * 9 / 10)) ] ||
  fail "the watch saw $cards card changes, fewer than 90 % of the $((30 * seconds)) sent meanwhile"

flat() { # name start end: fails unless end grew by less than 10 % and 4 MiB
  local growth=$(($3 - $2))
  echo "soak: $1 rss ${2} kB -> ${3} kB (${growth} kB)"
  [ "$growth" -lt 4096 ] && [ $((growth * 10)) -lt "$2" ] || fail "$1's memory grew from $2 kB to $3 kB"
}
flat session "$start_rss" "$end_rss"
flat watch "$start_wrss" "$end_wrss"
[ "$start_fds" -eq "$end_fds" ] || fail "the session's open descriptors went from $start_fds to $end_fds"
[ "$start_wfds" -eq "$end_wfds" ] || fail "the watch's open descriptors went from $start_wfds to $end_wfds"
echo "soak: PASS ($seconds s, 30 peers, a card each second each)"

#!/bin/bash
# A session's cost in a room (`make bench-session`): our
# session, bleak's BleakScanner and libdbus's floor (c_follower.c: the least a
# libdbus client does to follow the room) follow the same fake org.bluez, on
# one private bus, at the same time, for SECONDS in each of two rooms (the
# app's peers, then the same peers in a revealed round); prints each one's CPU
# time and resident memory, and the RATIO lines.
#
#   run.sh ESTIMATOR FAKE_BLUEZ PYTHON C_FOLLOWER PEERS INTERVAL_MS CARD_EVERY SECONDS
#
# The fake's room: PEERS advertisers, each heard every INTERVAL_MS with a new
# RSSI (one Device1 PropertiesChanged), showing a new card every CARD_EVERY
# receptions (Name in that PropertiesChanged).
set -euo pipefail
bin=$1 fake=$2 python=$3 c_follower=$4 peers=$5 interval=$6 card_every=$7 seconds=$8
here=$(dirname "$0")
warmup=5

source "$here/../../Tests/Scripts/start-fake-bluez.sh"
dir=$(mktemp -d)
fake_bluez_start "$fake" "$dir"
bleak_pid= c_pid=
cleanup() {
    [ -z "$bleak_pid" ] || kill "$bleak_pid" 2>/dev/null || true
    [ -z "$c_pid" ] || kill "$c_pid" 2>/dev/null || true
    "$bin" leave >/dev/null 2>&1 || true
    exec 3>&-
    wait
    rm -rf "$dir"
}
trap cleanup EXIT

joined=$("$bin" join --channel 1 --name bench)
session_pid=$(sed -n 's/.*(session pid \([0-9]*\)).*/\1/p' <<<"$joined")
[ -n "$session_pid" ] || { echo "bench-session: no session pid in: $joined" >&2; exit 1; }

"$python" "$here/bleak_scanner.py" 1 >"$dir/bleak.out" 2>"$dir/bleak.err" &
bleak_pid=$!
for _ in $(seq 300); do grep -q '^ready' "$dir/bleak.out" || ! kill -0 "$bleak_pid" 2>/dev/null && break; sleep 0.1; done
grep -q '^ready' "$dir/bleak.out" || { echo "bench-session: bleak did not start:" >&2; cat "$dir/bleak.err" >&2; exit 1; }
"$c_follower" >"$dir/c.out" 2>"$dir/c.err" &
c_pid=$!
for _ in $(seq 100); do grep -q '^ready' "$dir/c.out" || ! kill -0 "$c_pid" 2>/dev/null && break; sleep 0.1; done
grep -q '^ready' "$dir/c.out" || { echo "bench-session: c_follower did not start:" >&2; cat "$dir/c.err" >&2; exit 1; }

ticks() { awk '{ print $14 + $15 }' <<<"$(sed 's/.*) //' "/proc/$1/stat" | sed 's/^/x x /')"; }
kib() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/status"; }
# Sets the fake's room to packet version $1, waits until all three have heard
# every peer, then takes each one's CPU ticks over SECONDS into `spent`:
# (session bleak floor).
measure() {
  echo "advertisers $peers $interval $card_every 1 $1" >&3
  read -r reply <&4
  [[ $reply == ok* ]] || { echo "bench-session: fake-bluez: $reply" >&2; exit 1; }
  echo "fake org.bluez: $reply"
  sleep "$warmup"  # all three have heard every peer; measure the steady state
  local o0 b0 c0
  o0=$(ticks "$session_pid") b0=$(ticks "$bleak_pid") c0=$(ticks "$c_pid")
  sleep "$seconds"
  spent=("$(($(ticks "$session_pid") - o0))" "$(($(ticks "$bleak_pid") - b0))" "$(($(ticks "$c_pid") - c0))")
}

# The app's room (version 01: no round), then the same peers in round 1,
# revealed (31): the session takes that round and its reveal, and each
# reception is then a card of a revealed round, tallied for the table.
measure 01
app=("${spent[@]}")
measure 31
revealed=("${spent[@]}")
round=$("$bin" status | sed -n 's/^\(round [0-9]*, revealed\);.*/\1/p')
[ -n "$round" ] || { echo "bench-session: the session is in no revealed round: $("$bin" status)" >&2; exit 1; }
ours_rss=$(kib "$session_pid" VmRSS) ours_hwm=$(kib "$session_pid" VmHWM)
bleak_rss=$(kib "$bleak_pid" VmRSS) bleak_hwm=$(kib "$bleak_pid" VmHWM)
c_rss=$(kib "$c_pid" VmRSS)
status=$("$bin" status | sed -n 's/^.*; \([0-9]* people\) heard.*/\1/p')
kill "$bleak_pid"
wait "$bleak_pid" || true
bleak_pid=
kill "$c_pid"
wait "$c_pid" || true
c_pid=
heard=$(grep '^bleak:' "$dir/bleak.out" || echo "bleak: no summary")

hz=$(getconf CLK_TCK)
awk -v hz="$hz" -v s="$seconds" -v o="${app[0]}" -v b="${app[1]}" -v f="${app[2]}" \
    -v o_r="${revealed[0]}" -v b_r="${revealed[1]}" -v f_r="${revealed[2]}" -v crss="$c_rss" \
    -v orss="$ours_rss" -v ohwm="$ours_hwm" -v brss="$bleak_rss" -v bhwm="$bleak_hwm" -v round="$round" \
    -v status="$status" -v heard="$heard" -v signals="$((peers * 1000 / interval))" 'BEGIN {
    ours = o / hz; bleak = b / hz; c = f / hz; oursr = o_r / hz; bleakr = b_r / hz; cr = f_r / hz
    printf "%d signals/s for %d s in each room; estimator session heard %s, %s\n", signals, s, status, heard
    printf "  the app'"'"'s room (no round)      session %5.2f s CPU (%5.2f%%), bleak %5.2f s, libdbus floor (C) %5.2f s\n", ours, 100 * ours / s, bleak, c
    printf "  the same peers, %-17s session %5.2f s CPU (%5.2f%%), bleak %5.2f s, libdbus floor (C) %5.2f s\n", round ":", oursr, 100 * oursr / s, bleakr, cr
    printf "  RSS at the end: session %5.1f MiB (peak %5.1f), bleak %5.1f MiB (peak %5.1f), libdbus floor %5.1f MiB\n", orss / 1024, ohwm / 1024, brss / 1024, bhwm / 1024, crss / 1024
    printf "RATIO session-cpu-vs-bleak %.3f\n", (bleak > 0 ? ours / bleak : 0)
    printf "RATIO libdbus-floor-cpu-vs-bleak %.3f\n", (bleak > 0 ? c / bleak : 0)
    printf "RATIO session-cpu-vs-libdbus-floor %.3f\n", (c > 0 ? ours / c : 0)
    printf "RATIO revealed-session-cpu-vs-libdbus-floor %.3f\n", (cr > 0 ? oursr / cr : 0)
    printf "RATIO session-rss-vs-bleak %.3f\n", orss / brss
    printf "session-rss-mib %.1f (target <= 15)\n", orss / 1024
}'

#!/bin/bash
# How often an idle session wakes (`make bench-idle`): the context
# switches a second of every thread of our session, beside libdbus's floor
# (Benchmarks/SessionCost/c_follower.c, which wakes only for a signal), on a
# fake org.bluez, for SECONDS each: first with no peers at all, then in a quiet
# room of QUIET_PEERS peers each heard every QUIET_INTERVAL_MS. Every wakeup
# without work costs a laptop on battery; the target is an idle session at
# 10 a second or fewer.
#
#   run.sh ESTIMATOR FAKE_BLUEZ C_FOLLOWER QUIET_PEERS QUIET_INTERVAL_MS SECONDS
set -euo pipefail
bin=$1 fake=$2 c_follower=$3 peers=$4 interval=$5 seconds=$6
here=$(dirname "$0")
warmup=3

source "$here/../../Tests/Scripts/start-fake-bluez.sh"
dir=$(mktemp -d)
fake_bluez_start "$fake" "$dir"
c_pid=
cleanup() {
    [ -z "$c_pid" ] || kill "$c_pid" 2>/dev/null || true
    "$bin" leave >/dev/null 2>&1 || true
    exec 3>&-
    wait
    rm -rf "$dir"
}
trap cleanup EXIT

joined=$("$bin" join --channel 1 --name idle)
session_pid=$(sed -n 's/.*(session pid \([0-9]*\)).*/\1/p' <<<"$joined")
[ -n "$session_pid" ] || { echo "bench-idle: no session pid in: $joined" >&2; exit 1; }
"$c_follower" >"$dir/c.out" 2>"$dir/c.err" &
c_pid=$!
for _ in $(seq 100); do grep -q '^ready' "$dir/c.out" || ! kill -0 "$c_pid" 2>/dev/null && break; sleep 0.1; done
grep -q '^ready' "$dir/c.out" || { echo "bench-idle: c_follower did not start:" >&2; cat "$dir/c.err" >&2; exit 1; }

# Context switches, voluntary and not, summed over a process's threads.
switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { n += $2 } END { print n + 0 }'; }
threads() { ls /proc/"$1"/task | wc -l; }

# Prints "SESSION_PER_SECOND C_PER_SECOND" over $seconds.
measure() {
    sleep "$warmup"
    local s0 c0 s1 c1
    s0=$(switches "$session_pid") c0=$(switches "$c_pid")
    sleep "$seconds"
    s1=$(switches "$session_pid") c1=$(switches "$c_pid")
    awk -v s="$seconds" -v a="$((s1 - s0))" -v b="$((c1 - c0))" 'BEGIN { printf "%.1f %.1f\n", a / s, b / s }'
}

read -r idle_ours idle_c < <(measure)
echo "advertisers $peers $interval 1000000" >&3
read -r reply <&4
[[ $reply == ok* ]] || { echo "bench-idle: fake-bluez: $reply" >&2; exit 1; }
read -r quiet_ours quiet_c < <(measure)

awk -v s="$seconds" -v t="$(threads "$session_pid")" -v peers="$peers" -v interval="$interval" \
    -v io="$idle_ours" -v ic="$idle_c" -v qo="$quiet_ours" -v qc="$quiet_c" 'BEGIN {
    printf "context switches a second over %d s (session: %d threads)\n", s, t
    printf "  no peers:                       session %6.1f   libdbus floor (C) %6.1f\n", io, ic
    printf "  %d peers, each every %d ms: session %6.1f   libdbus floor (C) %6.1f\n", peers, interval, qo, qc
    # The floor wakes only for a signal: with no peers it rests, and a floor
    # under one a second counts as one, so the ratio stays a number.
    printf "RATIO idle-session-wakeups-vs-libdbus-floor %.3f\n", io / (ic > 1 ? ic : 1)
    printf "RATIO quiet-session-wakeups-vs-libdbus-floor %.3f\n", qo / (qc > 1 ? qc : 1)
    printf "idle-session-wakeups-per-second %.1f (target <= 10)\n", io
}'

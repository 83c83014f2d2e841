#!/bin/bash
# The table `make bench` ends with: every RATIO line of its log (and the
# absolute figures that have a target), with the targets we hold it to, the
# date and the machine, as Markdown for docs/MEASUREMENTS.md.
#
#   summary.sh BENCH_LOG
set -euo pipefail
log=$1

# What each measure is, and the target we hold it to.
describe() {
    case $1 in
        pick-vs-true) echo "\`estimator pick 8\` round trip ÷ /bin/true, wall time|≤ 3" ;;
        c-pick-vs-true) echo "the same round trip by a static C client ÷ /bin/true: the session's share|" ;;
        pick-vs-c-pick) echo "\`estimator pick 8\` ÷ that C client, wall time: the client's share|≤ 2.5" ;;
        pick-cpu-vs-true) echo "\`estimator pick 8\` ÷ /bin/true, CPU time of the process|≤ 3" ;;
        session-cpu-vs-bleak) echo "session in a room of 30 ÷ bleak BleakScanner, CPU time|≤ 0.2" ;;
        libdbus-floor-cpu-vs-bleak) echo "minimal C follower on libdbus-1, same room ÷ bleak, CPU time: libdbus's floor|" ;;
        session-cpu-vs-libdbus-floor) echo "session ÷ that minimal C follower, CPU time|≤ 1" ;;
        revealed-session-cpu-vs-libdbus-floor) echo "the same, the room's peers in a revealed round ÷ the C follower, CPU time|≤ 1" ;;
        session-rss-vs-bleak) echo "session ÷ bleak, resident memory|" ;;
        session-rss-mib) echo "session resident memory, MiB|≤ 15" ;;
        dbus-signals-vs-c) echo "D-Bus signals/s ÷ minimal C receiver on libdbus-1|≥ 0.8" ;;
        dbus-signals-vs-dbusfast) echo "D-Bus signals/s ÷ dbus-fast (Python)|≥ 3" ;;
        table-redraw-vs-full-bytes) echo "live table, 100 peers: bytes written ÷ full redraw|" ;;
        table-redraw-vs-full-time) echo "live table, 100 peers: time ÷ full redraw|" ;;
        table-redraw-us-per-frame) echo "live table, 100 peers: µs per redraw|≤ 1000" ;;
        idle-session-wakeups-vs-libdbus-floor) echo "session with no peers, context switches/s ÷ minimal C follower's|" ;;
        quiet-session-wakeups-vs-libdbus-floor) echo "session, 5 peers each heard once a second, context switches/s ÷ C follower's|" ;;
        idle-session-wakeups-per-second) echo "session with no peers (fake org.bluez), context switches/s over its threads|≤ 10" ;;
        *) echo "|" ;;
    esac
}

machine=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
echo
echo "estimator benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), ${machine:-unknown CPU}, $(nproc) CPUs, $(uname -sr)"
echo
echo "| measure | what | value | target |"
echo "| --- | --- | ---: | ---: |"
# "RATIO name x" and "name x (target …)" lines, in the order they ran.
sed -n -e 's/^RATIO \([a-z0-9-]*\) \([0-9.]*\)$/\1 \2/p' \
       -e 's/^\([a-z0-9-]*\) \([0-9.]*\) (target.*$/\1 \2/p' "$log" |
while read -r name value; do
    IFS='|' read -r what goal <<<"$(describe "$name")"
    echo "| $name | $what | $value | $goal |"
done

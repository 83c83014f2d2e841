#!/usr/bin/env bash
# D-Bus signal benchmark: one private dbus-daemon, one C sender, three receivers.
#
#   run.sh OURS C_PEER PYTHON [COUNT] [RSS_COUNT]
#
# All three receivers subscribe, then are stopped (SIGSTOP) while the sender emits
# COUNT PropertiesChanged-shaped signals, so each finds the same COUNT signals queued.
# They are then resumed one at a time, each alone on the CPU, and each times itself
# from its first signal to its last. A second phase streams RSS_COUNT signals to ours
# and reports its resident memory along the way.
set -euo pipefail
ours=$1 c_peer=$2 python=$3 count=${4:-200000} rss_count=${5:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
declare -A pid fd
cleanup() {
    for p in "${pid[@]}" ${daemon:-}; do kill -9 "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

cat > "$work/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$work/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
  <limit name="max_incoming_bytes">2000000000</limit>
  <limit name="max_outgoing_bytes">2000000000</limit>
  <limit name="max_message_size">1000000</limit>
</busconfig>
CONF
mkfifo "$work/address"
dbus-daemon --config-file="$work/bus.conf" --nofork --nosyslog --print-address=3 3>"$work/address" 2>/dev/null &
daemon=$!
read -r address < "$work/address"

# start NAME COMMAND...: runs a receiver and waits for its "ready" line.
start() {
    local name=$1; shift
    mkfifo "$work/$name"
    "$@" > "$work/$name" &
    pid[$name]=$!
    exec {descriptor}< "$work/$name"
    fd[$name]=$descriptor
    local line
    read -r line <&"${fd[$name]}"
    [ "$line" = ready ] || { echo "$name did not start" >&2; exit 1; }
}

start ours "$ours" "$address" "$count"
start c "$c_peer" receive "$address" "$count"
start dbusfast "$python" "$here/dbusfast_receiver.py" "$address" "$count"
for name in ours c dbusfast; do kill -STOP "${pid[$name]}"; done
"$c_peer" send "$address" "$count"

declare -A rate rss checksum
for name in c ours dbusfast; do
    kill -CONT "${pid[$name]}"
    read -r rate[$name] rss[$name] checksum[$name] <&"${fd[$name]}"
    wait "${pid[$name]}"
done
if [ "${checksum[ours]}" != "${checksum[c]}" ] || [ "${checksum[dbusfast]}" != "${checksum[c]}" ]; then
    echo "receivers disagree on the content: ${checksum[*]}" >&2
    exit 1
fi

# Memory: stream RSS_COUNT signals through ours while the sender runs.
start stream "$ours" "$address" "$rss_count" 200000 $((rss_count / 2)) "$rss_count"
"$c_peer" send "$address" "$rss_count" &
sender=$!
read -r _ _ rss_200k <&"${fd[stream]}"
read -r _ _ rss_half <&"${fd[stream]}"
read -r _ _ rss_end <&"${fd[stream]}"
read -r stream_rate _ _ <&"${fd[stream]}"
wait "$sender" "${pid[stream]}"

printf 'D-Bus signals: %d PropertiesChanged (sa{sv}as: Name, RSSI) on one private bus, same run\n' "$count"
printf '  %-40s %12s %10s\n' receiver msgs/s "RSS kB"
printf '  %-40s %12s %10s\n' "ours (DBus module -> typed Swift value)" "${rate[ours]}" "${rss[ours]}"
printf '  %-40s %12s %10s\n' "C, libdbus-1 (minimal receiver)" "${rate[c]}" "${rss[c]}"
printf '  %-40s %12s %10s\n' "dbus-fast (Python, PyPI)" "${rate[dbusfast]}" "${rss[dbusfast]}"
printf '  ours while streaming %d: %s msgs/s; resident kB after 200000: %s, %d: %s, %d: %s\n' \
    "$rss_count" "$stream_rate" "$rss_200k" $((rss_count / 2)) "$rss_half" "$rss_count" "$rss_end"
awk -v o="${rate[ours]}" -v c="${rate[c]}" -v p="${rate[dbusfast]}" 'BEGIN {
    printf "RATIO dbus-signals-vs-c %.2f\n", o / c
    printf "RATIO dbus-signals-vs-dbusfast %.2f\n", o / p
}'

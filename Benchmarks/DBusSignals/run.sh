#!/usr/bin/env bash
# D-Bus signal benchmark: one private dbus-daemon, one C sender, three receivers.
#
#   run.sh OURS C_PEER PYTHON [COUNT] [RSS_COUNT] [ROUNDS]
#
# Each round, all receivers subscribe, then are stopped (SIGSTOP) while the sender emits
# COUNT PropertiesChanged-shaped signals, so each finds the same COUNT signals queued in
# the bus and the sender's speed cannot limit anyone. They are then resumed one at a time
# (the order rotates each round), and each times itself from its first signal to its
# last; during that window only the bus daemon, replaying its queue, feeds it. A fourth
# receiver, "c_peer drain", reads the socket raw without parsing: the bus's delivery
# ceiling, the most any D-Bus library could reach here. The table shows each receiver's
# median over ROUNDS rounds; the RATIO lines are the median of the per-round ratios
# (receivers measured seconds apart, so a neighbour's load spike skews one round, not
# the result). A second phase streams RSS_COUNT signals to ours and reports its resident
# memory along the way.
set -euo pipefail
ours=$1 c_peer=$2 python=$3 count=${4:-200000} rss_count=${5:-1000000} rounds=${6:-3}
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

# median NUMBERS...: the middle value (upper middle for an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int(NR / 2) + 1] }'; }

printf 'D-Bus signals: %d PropertiesChanged (sa{sv}as: Name, RSSI) on one private bus, %d rounds\n' "$count" "$rounds"
receivers=(ours c dbusfast ceiling)
declare -A rates cpus rss
ratios_c=() ratios_dbusfast=()
for ((round = 0; round < rounds; round++)); do
    start ours "$ours" "$address" "$count"
    start c "$c_peer" receive "$address" "$count"
    start dbusfast "$python" "$here/dbusfast_receiver.py" "$address" "$count"
    start ceiling "$c_peer" drain "$address" "$count"
    for name in "${receivers[@]}"; do kill -STOP "${pid[$name]}"; done
    "$c_peer" send "$address" "$count"

    declare -A rate cpu checksum
    for ((i = 0; i < ${#receivers[@]}; i++)); do
        name=${receivers[(i + round) % ${#receivers[@]}]}
        kill -CONT "${pid[$name]}"
        read -r rate[$name] rss[$name] checksum[$name] cpu[$name] <&"${fd[$name]}"
        wait "${pid[$name]}"
        descriptor=${fd[$name]}
        exec {descriptor}<&-
        rm -f "$work/$name"
        unset "pid[$name]"
        rates[$name]+=" ${rate[$name]}"
        cpus[$name]+=" ${cpu[$name]}"
    done
    if [ "${checksum[ours]}" != "${checksum[c]}" ] || [ "${checksum[dbusfast]}" != "${checksum[c]}" ]; then
        echo "receivers disagree on the content: ${checksum[*]}" >&2
        exit 1
    fi
    printf '  round %d msgs/s: ours %s, C %s, dbus-fast %s, bus ceiling %s\n' $((round + 1)) \
        "${rate[ours]}" "${rate[c]}" "${rate[dbusfast]}" "${rate[ceiling]}"
    ratios_c+=("$(awk -v o="${rate[ours]}" -v c="${rate[c]}" 'BEGIN { print o / c }')")
    ratios_dbusfast+=("$(awk -v o="${rate[ours]}" -v p="${rate[dbusfast]}" 'BEGIN { print o / p }')")
done

# Memory: stream RSS_COUNT signals through ours while the sender runs.
start stream "$ours" "$address" "$rss_count" 200000 $((rss_count / 2)) "$rss_count"
"$c_peer" send "$address" "$rss_count" &
sender=$!
read -r _ _ rss_200k <&"${fd[stream]}"
read -r _ _ rss_half <&"${fd[stream]}"
read -r _ _ rss_end <&"${fd[stream]}"
read -r stream_rate _ _ <&"${fd[stream]}"
wait "$sender" "${pid[stream]}"

printf '  %-44s %10s %12s %8s\n' "receiver (median of the rounds)" msgs/s "CPU us/msg" "RSS kB"
row() {
    # shellcheck disable=SC2086 # the lists are space-separated numbers
    printf '  %-44s %10s %12s %8s\n' "$1" "$(median ${rates[$2]})" "$(median ${cpus[$2]})" "$3"
}
row "ours (DBus module -> typed Swift value)" ours "${rss[ours]}"
row "C, libdbus-1 (minimal receiver)" c "${rss[c]}"
row "dbus-fast (Python, PyPI)" dbusfast "${rss[dbusfast]}"
row "bus ceiling (raw socket reads, no parsing)" ceiling "-"
printf '  ours while streaming %d: %s msgs/s; resident kB after 200000: %s, %d: %s, %d: %s\n' \
    "$rss_count" "$stream_rate" "$rss_200k" $((rss_count / 2)) "$rss_half" "$rss_count" "$rss_end"
printf 'RATIO dbus-signals-vs-c %.2f\n' "$(median "${ratios_c[@]}")"
printf 'RATIO dbus-signals-vs-dbusfast %.2f\n' "$(median "${ratios_dbusfast[@]}")"

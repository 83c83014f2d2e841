#!/bin/bash
# Pick → visible through one local mosquitto, ROOMS rooms of PEOPLE sessions
# without Bluetooth (`--adapter none --relay`), every room picking at once,
# beside mosquitto_pub → mosquitto_sub on the same broker in the same run as
# the floor (`make bench-relay`).
#
#   run.sh BIN_DIR ROOMS PEOPLE PICKS
#
# Latency of a pick: from just before `estimator pick` starts to the `time`
# of the event line the room's observer (a `watch --json --open` attached
# to the first session of the room) prints for it: process start, control
# socket, relay, broker, relay, session, watch. The floor: from just before
# `mosquitto_pub` starts to mosquitto_sub's receipt time (%U): process
# start, broker, delivery. CPU: user + system time of every session and its
# relay over the picking phase, per session.
set -euo pipefail
bin=$1 rooms=$2 people=$3 picks=$4
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n' "$port" > "$dir/mosquitto.conf"
[ "$(id -u)" = 0 ] && echo "user root" >> "$dir/mosquitto.conf"
mosquitto -c "$dir/mosquitto.conf" 2> "$dir/mosquitto.log" &
broker=$!
cleanup() {
    leaves=()
    for home in "$dir"/r*-p*; do
        [ -d "$home" ] || continue
        XDG_RUNTIME_DIR=$home/run XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state \
            "$bin/estimator" leave --adapter none >/dev/null 2>&1 &
        leaves+=($!)
    done
    wait "${leaves[@]}" 2>/dev/null || true
    for pid in "${watches[@]}"; do kill "$pid" 2>/dev/null || true; done
    kill "$broker" 2>/dev/null || true
    rm -rf "$dir"
}
watches=()
trap cleanup EXIT
until grep -q " running" "$dir/mosquitto.log"; do sleep 0.1; done

as() {  # as ROOM PERSON COMMAND...: runs estimator as that participant
    local home=$dir/r$1-p$2
    shift 2
    XDG_RUNTIME_DIR=$home/run XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state "$bin/estimator" "$@"
}

echo "starting $((rooms * people)) sessions in $rooms rooms on mosquitto :$port"
for r in $(seq 1 "$rooms"); do
    for p in $(seq 1 "$people"); do
        mkdir -p "$dir/r$r-p$p"/{run,config,state}
        as "$r" "$p" join --adapter none --name "P$p" --channel 1 --relay "mqtt://127.0.0.1:$port/room$r" \
            >/dev/null 2>"$dir/r$r-p$p/join.err" || { cat "$dir/r$r-p$p/join.err"; exit 1; }
    done
    as "$r" 1 watch --adapter none --json --open > "$dir/watch-$r.jsonl" 2>/dev/null &
    watches+=($!)
done
# Every session's pid (from status) and its relay's (its child).
pids=""
for r in $(seq 1 "$rooms"); do
    for p in $(seq 1 "$people"); do
        session=$(as "$r" "$p" status --adapter none | sed -n 's/^session pid \([0-9]*\).*/\1/p')
        pids="$pids $session $(cat /proc/"$session"/task/*/children 2>/dev/null)"
    done
done
cpu() { for pid in $pids; do awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0; done | awk '{ s += $1 } END { print s }'; }
sleep 3   # every room has heard every member before the clock starts

# The floor, measured while the rooms run (and again after, for the record).
mosquitto_sub -p "$port" -t bench/floor -F '%U %p' > "$dir/floor.txt" &
sub=$!
sleep 0.5
floor() { for _ in $(seq 1 "$picks"); do mosquitto_pub -p "$port" -q 1 -t bench/floor -m "$(date +%s.%N)"; sleep 0.3; done; }

start_cpu=$(cpu) start_time=$(date +%s.%N)
cards=(1 2 3 5 8 13 20 40)
pickers=()
for r in $(seq 1 "$rooms"); do
    (
        held=()
        for k in $(seq 1 "$picks"); do
            p=$(( (RANDOM % (people - 1)) + 2 ))
            card=${cards[$(( (k + r) % 8 ))]}
            # A card the person already holds changes nothing to see.
            [ "$card" != "${held[$p]:-}" ] || card=${cards[$(( (k + r + 1) % 8 ))]}
            held[$p]=$card
            t0=$(date +%s.%N)
            as "$r" "$p" pick "$card" --adapter none >/dev/null
            echo "$r P$p $card $t0" >> "$dir/picks-$r.txt"
            sleep $(( 2 + RANDOM % 2 ))
        done
    ) &
    pickers+=($!)
done
floor
wait "${pickers[@]}"
sleep 1
end_cpu=$(cpu) end_time=$(date +%s.%N)
kill "$sub"

python3 - "$dir" "$rooms" "$people" "$start_cpu" "$end_cpu" "$start_time" "$end_time" <<'PY'
import glob, json, sys, datetime, os
d, rooms, people = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cpu_ticks = float(sys.argv[5]) - float(sys.argv[4])
span = float(sys.argv[7]) - float(sys.argv[6])
hz = os.sysconf("SC_CLK_TCK")
def ts(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
latencies, missed = [], 0
for path in glob.glob(f"{d}/picks-*.txt"):
    room = path.split("-")[-1][:-4]
    events = []
    for line in open(f"{d}/watch-{room}.jsonl"):
        try: e = json.loads(line)
        except ValueError: continue
        if e.get("event") in ("card", "joined", "back"): events.append(e)
    for line in open(path):
        _, name, card, t0 = line.split()
        t0 = float(t0)
        hex_card = format(int(card), "02X")
        seen = [ts(e["time"]) for e in events if e["name"] == name and e.get("cardRaw") == hex_card and ts(e["time"]) >= t0 - 0.002]
        if seen: latencies.append((min(seen) - t0) * 1000)
        else: missed += 1
floor = []
for line in open(f"{d}/floor.txt"):
    got, sent = line.split()
    floor.append((float(got) - float(sent)) * 1000)
def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")
sessions = rooms * people
print(f"relay pick -> visible: {len(latencies)} picks ({missed} not seen): p50 {pct(latencies, .5):.1f} ms, p95 {pct(latencies, .95):.1f} ms")
print(f"mosquitto_pub -> mosquitto_sub: {len(floor)} messages: p50 {pct(floor, .5):.1f} ms, p95 {pct(floor, .95):.1f} ms")
print(f"CPU per session (session + relay): {cpu_ticks / hz / span / sessions * 100:.2f} % of a core over {span:.0f} s, {sessions} sessions")
print(f"RATIO relay-pick-vs-mosquitto-floor {pct(latencies, .5) / pct(floor, .5):.2f}")
PY

# Remote teammates through an MQTT broker, on the real stack. A
# mosquitto inside the guest (plain mqtt:// on loopback: TLS and passwords
# are covered by RelayCLITests against a real mosquitto on the host); Ann on
# hci0 with the air alone; Bob on hci1 with the air and the relay (the
# bridge); Remy with the relay alone (`--adapter none`); Jo's iPhone running
# the app on hci2 (Tests/Air's iPhone model, iphone_advertise: "0101DJo",
# card 13 as the app sends it).
# 1. Remy's watch shows Ann, Bob and Jo with their cards, all through the
#    relay; Bob's shows Ann and Jo over the air and Remy through the relay.
# 2. Pick -> visible through the relay, to the time in the watch's own line
#    (see seen_ms): Ann's picks on hci0 seen by Remy's watch (air, Bob's
#    session, Bob's relay, broker, Remy's relay, Remy's session), and Remy's
#    seen by Bob's watch (Remy's relay, broker, Bob's relay, Bob's session).
#    Remy's picks do not reach Ann: Bob advertises only himself.
# 3. A round Remy starts reaches Ann through Bob: Bob's session follows it
#    and advertises it, Ann's follows Bob; both their cards are cleared.
# 4. Remy leaves: Bob's watch drops Remy at once.
# radios: 3
# timeout: 300

# A failure's report: the sessions' logs, the watches and the broker, and
# the air around the slowest timed pick.
report_failure 30 watch0 watch1 watchR broker
air_record

# The guest's init brings no network up, not even loopback.
ip link set lo up
port=1883
url=mqtt://127.0.0.1:$port/e2e
{
  printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\n' "$port"
  [ "$(id -u)" != 0 ] || echo "user root"
} >"$E2E_WORK/mosquitto.conf"
bg_start broker mosquitto -c "$E2E_WORK/mosquitto.conf"
bg_expect broker ' running' 15 >/dev/null

# Each teammate (`as`: 0 Ann, 1 Bob, R Remy) has configuration and state of
# their own, as on their own laptop: the relay URL one remembers is not the
# others'. The control sockets share the runtime folder; each session has
# its own adapter.
# Jo's phone: one address, as iOS keeps its own (ballot.sh); before the
# laptops (iphone_advertise).
iphone_advertise 2 0101DJo
as 0 join --adapter hci0 --channel 1 --name Ann >"$E2E_WORK/join0.out" 2>&1 ||
  fail "join on hci0: $(cat "$E2E_WORK/join0.out")"
as 1 join --adapter hci1 --channel 1 --name Bob --relay "$url" >"$E2E_WORK/join1.out" 2>&1 ||
  fail "join on hci1 with the relay: $(cat "$E2E_WORK/join1.out")"
grep -q "relay connected to $url" "$E2E_WORK/join1.out" || fail "hci1's join said: $(cat "$E2E_WORK/join1.out")"
as R join --adapter none --channel 1 --name Remy --relay "$url" >"$E2E_WORK/joinR.out" 2>&1 ||
  fail "join without Bluetooth: $(cat "$E2E_WORK/joinR.out")"

# --open: what is checked is what crosses the relay, not the reveal.
bg_start watch0 as 0 watch --adapter hci0 --json --open
bg_start watch1 as 1 watch --adapter hci1 --json --open
bg_start watchR as R watch --adapter none --json --open
as 0 pick --adapter hci0 8 >/dev/null || fail "pick 8 on hci0"
as 1 pick --adapter hci1 5 >/dev/null || fail "pick 5 on hci1"
as R pick --adapter none 3 >/dev/null || fail "pick 3 without Bluetooth"

# 1. Everyone where they should be, each heard the way they are.
shows() { # shows WATCH NAME CARDRAW HEARD: WATCH has had such a line
  wait_until 30 grep -aq "\"name\":\"$2\",\"card\":\"[^\"]*\",\"cardRaw\":\"$3\",\"rssi\":[^,]*,\"heard\":\"$4\"" \
    "$E2E_WORK/$1.out"
}
shows watchR Ann 08 relay
shows watchR Bob 05 relay
shows watchR Jo 0D relay
shows watch1 Ann 08 air
shows watch1 Jo 0D air
shows watch1 Remy 03 relay
shows watch0 Bob 05 air
shows watch0 Jo 0D air
status=$(as 1 status --adapter hci1)
[[ $status == *"relay: $url connected"* ]] || fail "hci1's status: $status"

# 2. Pick -> visible through the relay, both ways, alternating two cards.
timed_picks() { # timed_picks WHO ADAPTER NAME WATCH: 20 picks, "MS START" each
  local who=$1 adapter=$2 name=$3 watch=$4 n card hex started ms
  bg_mark "$watch"
  for n in $(seq 1 20); do
    if [ $((n % 2)) -eq 1 ]; then card=13 hex=0D; else card=2 hex=02; fi
    started=$(now_ms)
    as "$who" pick --adapter "$adapter" $card >/dev/null || fail "pick $card on $adapter"
    ms=$(seen_ms "$watch" "\"event\":\"card\",\"channel\":1,\"round\":null,\"name\":\"$name\",\"card\":\"[^\"]*\",\"cardRaw\":\"$hex\"" 15 "$started")
    echo "$ms $started"
  done
}
air_to_relay=$(timed_picks 0 hci0 Ann watchR)
relay_to_air=$(timed_picks R none Remy watch1)
measuring "$(sort -n <<<"$air_to_relay"$'\n'"$relay_to_air" | tail -n 1 | cut -d ' ' -f 2)"  # the slowest pick, for a failure's report
# Each way within the pick -> visible bound of the air (1.5 s at p95 of 20
# picks, room.sh).
metric relay_hci0_pick_to_remote_p95 "$(cut -d ' ' -f 1 <<<"$air_to_relay" | percentile 95 | seconds)" s '<= 1.5'
metric relay_remote_pick_to_hci1_p95 "$(cut -d ' ' -f 1 <<<"$relay_to_air" | percentile 95 | seconds)" s '<= 1.5'

# 3. Remy's rounds reach Ann through Bob. The first round one hears may be
# joined as it runs (keeping the card); the second clears every card.
as R round --adapter none >/dev/null || fail "round without Bluetooth"
wait_until 30 eval '[[ $(as 0 status --adapter hci0) == *"round 1;"* ]]'
as 0 pick --adapter hci0 8 >/dev/null || fail "pick 8 on hci0 in round 1"
as 1 pick --adapter hci1 5 >/dev/null || fail "pick 5 on hci1 in round 1"
bg_expect watchR '"event":"card","channel":1,"round":1,"name":"Ann","card":"8","cardRaw":"08"' 30 >/dev/null
bg_mark watch0
started=$(now_ms)
reply=$(as R round --adapter none) || fail "second round without Bluetooth: $reply"
[[ $reply == *"round 2 began in channel 1"* ]] || fail "Remy's round said: $reply"
round=$(seen_ms watch0 '"event":"round","channel":1,"round":2' 30 "$started")
bg_expect watch0 '"event":"card","channel":1,"round":2,"name":"Bob","card":"waiting","cardRaw":"FC"' 30 >/dev/null
status=$(as 0 status --adapter hci0)
[[ $status == *"round 2;"* && $status == *"no card"* ]] || fail "hci0's status after Remy's round: $status"
# Within round's bound for a new round's cleared cards (3 s, round.sh).
metric relay_round_to_hci0 "$(seconds <<<"$round")" s '<= 3'

# 4. Leaving through the relay is seen at once.
bg_mark watch1
started=$(now_ms)
as R leave --adapter none >/dev/null || fail "leave without Bluetooth"
gone=$(seen_ms watch1 '"event":"left","channel":1,"round":2,"name":"Remy"' 10 "$started")
# Within room's leave -> gone bound (1.5 s).
metric relay_leave_to_gone "$(seconds <<<"$gone")" s '<= 1.5'

# The room's watcher (rooms.sh), 전수열 on the hci0 of a guest of its own: it
# drives the room with the cards it picks (rooms/lib.sh) and measures on its
# own clock, to the `time` of its watch's lines (seen_ms): each ping -> the
# answer seen, which rooms.sh pairs with Alice's turnaround; each signal ->
# Bob gone, then stale; each round's last vote or `reveal` -> revealed with
# Alice's card. The other guests' clocks are not this one's.
# radios: 0
# timeout: 600
. "$E2E_ROOT/rooms/lib.sh"

room_up 전수열 8
room_meet Alice 05 Bob FE
room_steady Alice Bob

# Ping-pong: Alice answers each ping as soon as she sees it.
rtts=()
for n in $(seq "$PINGS"); do
  if [ $((n % 2)) -eq 1 ]; then ping=13 answer=08; else ping=3 answer=05; fi
  started=$(now_ms)
  estimator pick --adapter hci0 $ping >/dev/null || fail "ping $n: pick $ping"
  rtts+=("$(seen_ms watch "$(event_line card Alice),\"card\":\"[^\"]*\",\"cardRaw\":\"$answer\"" 30 "$started")")
done
figures ping_rtt "${rtts[@]}"

started=$(now_ms)
estimator pick --adapter hci0 20 >/dev/null || fail "pick 20, Bob's signal to leave"
metric leave_signal_to_gone_ms "$(seen_ms watch "$(event_line left Bob)" 30 "$started")" ms
bg_expect watch "$(card_line Bob 02)" 60 >/dev/null

killed_from=$(wc -l <"$E2E_WORK/watch.out")
started=$(now_ms)
estimator pick --adapter hci0 40 >/dev/null || fail "pick 40, Bob's signal to be killed"
metric kill_signal_to_stale_ms "$(seen_ms watch "$(event_line stale Bob)" 30 "$started")" ms

# The ballot: rounds of a vote each, Alice's first, sealed on the
# air in the light mode. Then the watcher's last vote, or its `estimator
# reveal` without a vote, reveals here at once, and the table shows the
# round once Alice's card is here. In the light mode she puts it on the air
# when she hears the reveal, so the figure is two one-way trips on this
# clock alone; in the strict mode her card is here already.
lasts=() reveals=()
for n in $(seq "$ROUNDS"); do
  reply=$(estimator round --adapter hci0) || fail "round $n: $reply"
  [[ $reply == *"round $n began in channel 1"* ]] || fail "round $n said: $reply"
  bg_expect watch "$(vote_line "$n" Alice)" 30 >/dev/null
  started=$(now_ms)
  if [ $((n % 2)) -eq 1 ]; then
    estimator pick --adapter hci0 5 >/dev/null || fail "round $n: pick 5"
    lasts+=("$(seen_ms watch "$(revealed_line "$n")" 30 "$started")")
  else
    reply=$(estimator reveal --adapter hci0) || fail "round $n: reveal: $reply"
    [ "$reply" = "round $n revealed in channel 1 without you" ] || fail "round $n: reveal said: $reply (the watcher, who did not vote, is told it is them)"
    reveals+=("$(seen_ms watch "$(revealed_line "$n")" 30 "$started")")
  fi
  line=$(grep "$(revealed_line "$n")" "$E2E_WORK/watch.out")
  [[ $line == *'{"name":"Alice","card":"8","cardRaw":"08"}'* ]] || fail "round $n revealed without Alice's card: $line"
done
figures ballot_last_vote_to_revealed "${lasts[@]}"
figures ballot_reveal_to_revealed "${reveals[@]}"
# Each round within the bound ballot.sh holds a reveal to on one guest (the
# round's pick -> visible, 1.5 s), here with a bluetoothd per laptop.
metric ballot_to_revealed_max "$(values "${lasts[@]}" "${reveals[@]}" | percentile 100)" ms '<= 1500'

false=$(($(stale_count Alice) + $(stale_count Bob "$killed_from")))
metric false_stale "$false"
[ "$false" -eq 0 ] || fail "$false stale events for peers still on the air"

# Done (a vote again after the reveal goes on the air in clear at once):
# Alice acknowledges before this guest goes off the air, then sees it
# leave.
estimator pick --adapter hci0 '?' >/dev/null || fail "pick ?, done"
bg_expect watch "$(card_line Alice 01)" 30 >/dev/null
estimator leave --adapter hci0 >/dev/null || fail "leave"

# The room's watcher (rooms.sh), 전수열 on the hci0 of a guest of its own: it
# drives the room with the cards it picks (rooms/lib.sh) and measures on its
# own clock, to the `time` of its watch's lines (seen_ms): each ping -> the
# answer seen, which rooms.sh pairs with Alice's turnaround; each signal ->
# Bob gone, then stale. The other guests' clocks are not this one's.
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
metric ping_rtt_samples "$(samples "${rtts[@]}")" ms
metric ping_rtt_p50 "$(percentile 50 "${rtts[@]}")" ms
metric ping_rtt_p95 "$(percentile 95 "${rtts[@]}")" ms

started=$(now_ms)
estimator pick --adapter hci0 20 >/dev/null || fail "pick 20, Bob's signal to leave"
metric leave_signal_to_gone_ms "$(seen_ms watch "$(event_line left Bob)" 30 "$started")" ms
bg_expect watch "$(card_line Bob 02)" 60 >/dev/null

killed_from=$(wc -l <"$E2E_WORK/watch.out")
started=$(now_ms)
estimator pick --adapter hci0 40 >/dev/null || fail "pick 40, Bob's signal to be killed"
metric kill_signal_to_stale_ms "$(seen_ms watch "$(event_line stale Bob)" 30 "$started")" ms

false=$(($(stale_count Alice) + $(stale_count Bob "$killed_from")))
metric false_stale "$false"
[ "$false" -eq 0 ] || fail "$false stale events for peers still on the air"

# Done: Alice acknowledges before this guest goes off the air, then sees it
# leave.
estimator pick --adapter hci0 '?' >/dev/null || fail "pick ?, done"
bg_expect watch "$(card_line Alice 01)" 30 >/dev/null
estimator leave --adapter hci0 >/dev/null || fail "leave"

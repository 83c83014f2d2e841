# Alice in the room (rooms.sh), on the hci0 of a guest of her own: she
# answers each of the watcher's pings the moment her watch shows it
# (rooms/lib.sh) and measures her turnaround on her own clock, from her
# watch line's `time` to her pick, for rooms.sh to take from the watcher's
# round trips. She sees Bob leave, come back and go stale, votes in the
# watcher's rounds, and sees the watcher leave.
# radios: 0
# timeout: 600
. "$E2E_ROOT/rooms/lib.sh"

room_up Alice 5
room_meet 전수열 08 Bob FE
room_steady 전수열 Bob

turns=()
for n in $(seq "$PINGS"); do
  if [ $((n % 2)) -eq 1 ]; then ping=0D answer=8; else ping=03 answer=5; fi
  # The first ping comes when the watcher's steady phase ends, not hers.
  line=$(bg_expect watch "$(event_line card 전수열),\"card\":\"[^\"]*\",\"cardRaw\":\"$ping\"" 120)
  turns+=($(($(now_ms) - $(time_ms "$line"))))
  estimator pick --adapter hci0 $answer >/dev/null || fail "answer $n: pick $answer"
done
metric ping_turnaround_samples "$(samples "${turns[@]}")" ms
metric ping_turnaround_p50 "$(values "${turns[@]}" | percentile 50)" ms

bg_expect watch "$(event_line left Bob)" 60 >/dev/null
bg_expect watch "$(card_line Bob 02)" 60 >/dev/null
killed_from=$(wc -l <"$E2E_WORK/watch.out")

# The watcher's rounds begin once its own watch shows Bob stale; hers
# counts Bob's silence on her own ticks and may show him stale later. She
# votes in each round and sees it revealed.
for n in $(seq "$ROUNDS"); do
  bg_expect watch "\"event\":\"round\",\"channel\":1,\"round\":$n," 120 >/dev/null
  estimator pick --adapter hci0 8 >/dev/null || fail "round $n: pick 8"
  bg_expect watch "$(revealed_line "$n")" 30 >/dev/null
done
wait_until 60 grep -q "$(event_line stale Bob)" "$E2E_WORK/watch.out"
bg_expect watch "$(card_line 전수열 FD)" 60 >/dev/null
estimator pick --adapter hci0 1 >/dev/null || fail "pick 1, done"
bg_expect watch "$(event_line left 전수열)" 60 >/dev/null

false=$(($(stale_count 전수열) + $(stale_count Bob "$killed_from")))
metric false_stale "$false"
[ "$false" -eq 0 ] || fail "$false stale events for peers still on the air"

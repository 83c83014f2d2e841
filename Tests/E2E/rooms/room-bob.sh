# Bob in the room (rooms.sh), on the hci0 of a guest of his own: on the
# watcher's signals (rooms/lib.sh) he leaves, comes back, and has his
# session killed with kill -9. He measures his turnaround for each on his own
# clock, from his watch line's `time` to the act, for rooms.sh to take from
# what the watcher measured.
# radios: 0
# timeout: 600
. "$E2E_ROOT/rooms/lib.sh"

room_up Bob coffee
room_meet 전수열 08 Alice 05
room_steady 전수열 Alice

# The signal comes after the watcher's steady phase and its pings.
line=$(bg_expect watch "$(card_line 전수열 14)" 600)
metric leave_turnaround_ms $(($(now_ms) - $(time_ms "$line"))) ms
estimator leave --adapter hci0 >/dev/null || fail "leave"
false=$(($(stale_count 전수열) + $(stale_count Alice)))

# Back, with a new watch (the first ended with its session) that is
# following before the pick that the watcher answers with its signal.
estimator join --adapter hci0 --channel 1 --name Bob >/dev/null || fail "join again"
bg_start watch estimator watch --adapter hci0 --json --open
estimator pick --adapter hci0 2 >/dev/null || fail "pick 2"
line=$(bg_expect watch "$(card_line 전수열 28)" 60)
pid=$(estimator status --adapter hci0 | sed -n 's/^session pid \([0-9]*\).*/\1/p')
[ -n "$pid" ] || fail "no pid in the session's status"
metric kill_turnaround_ms $(($(now_ms) - $(time_ms "$line"))) ms
kill -9 "$pid"

false=$((false + $(stale_count 전수열) + $(stale_count Alice)))
metric false_stale "$false"
[ "$false" -eq 0 ] || fail "$false stale events for peers still on the air"
# This guest stays up until bluetoothd has taken the dead session's
# advertisement off the air: the others are to see Bob go quiet, not this
# guest's end.
adverts() { bluez_property /org/bluez/hci0 LEAdvertisingManager1 ActiveInstances | awk '/byte/ { print $NF }'; }
wait_until 30 eval '[ "$(adverts)" = 0 ]'

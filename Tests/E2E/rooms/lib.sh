# What the roles of the rooms rig share (Tests/E2E/rooms.sh), sourced by each
# role's scenario after the guest's lib.sh. Every guest has one controller,
# hci0, on the host's shared air; the roles talk only over that air, with
# the cards they pick (the room's protocol, docs/ROOMS.md):
#
#   전수열 (watcher)  pings: 13 and 3 in turn; then 20: Bob, leave;
#                     40: Bob, get killed; then ROUNDS rounds, each
#                     revealed by its pick of 5 or `estimator reveal` in
#                     turn; ?: done
#   Alice             answers each ping: 13 -> 8, 3 -> 5; votes 8 in each
#                     round; done -> 1
#   Bob               leaves on 20, comes back with 2, kill -9 on 40
#
#   room_up NAME CARD          the air, a session joined with CARD, its watch
#   room_meet NAME RAW ...     until this watch shows each NAME with card RAW
#   room_steady NAME...        no stale NAME for the steady phase (E2E_STEADY)
#   card_line NAME RAW         regex of a watch line showing NAME with card RAW
#   event_line EVENT NAME      regex of a watch line of EVENT about NAME
#   vote_line N NAME           regex of a watch line of NAME's vote in round N
#   revealed_line N            regex of the watch line revealing round N
#   stale_count NAME [LINES]   stale lines about NAME in the first LINES
#                              lines of the watch (default: all)
#   samples VALUE...           VALUEs comma-separated, for a *_samples metric
#   values VALUE...            one a line, for lib.sh's percentile
#   figures NAME VALUE...      the metrics NAME_samples, NAME_p50, NAME_p95 (ms)

PINGS=20
ROUNDS=10

# The bridge to this guest's controller in the host's air, then bluetoothd's
# adapter on it. bluetoothd starts first (guest.sh, "# radios: 0") and takes
# the controller up when the kernel announces it, as for a plugged-in dongle.
air_up() {
  local started; started=$(now_ms)
  bg_start bridge python3 "$E2E_ROOT/rooms/vhci-bridge.py" air
  bg_expect bridge '^hci0$' 30 >/dev/null
  adapter_ready 0
  metric air_up_s "$(awk -v ms=$(($(now_ms) - started)) 'BEGIN { printf "%.1f", ms / 1000 }')" s
}

# --open: each card is shown as soon as it is picked, so a watch started
# after a pick shows it at once, without waiting to have heard the room.
room_up() {
  air_up
  estimator join --adapter hci0 --channel 1 --name "$1" >"$E2E_WORK/join.out" 2>&1 ||
    fail "join as $1: $(cat "$E2E_WORK/join.out")"
  estimator pick --adapter hci0 "$2" >/dev/null || fail "pick $2 as $1"
  bg_start watch estimator watch --adapter hci0 --json --open
  met_from=$(now_ms)
}

# The guests boot side by side but not in step: a peer may join a minute
# after this guest did.
room_meet() {
  while [ $# -gt 0 ]; do
    wait_until 180 grep -q "$(card_line "$1" "$2")" "$E2E_WORK/watch.out"
    shift 2
  done
  metric meet_s "$(awk -v ms=$(($(now_ms) - met_from)) 'BEGIN { printf "%.1f", ms / 1000 }')" s
}

room_steady() {
  local names; names=$(IFS='|'; echo "$*")
  bg_expect_none watch "\"event\":\"stale\",\"channel\":1,\"round\":[^,]*,\"name\":\"($names)\"" "${E2E_STEADY:-60}"
  metric steady_s "${E2E_STEADY:-60}" s
}

card_line() { echo "\"name\":\"$1\",\"card\":\"[^\"]*\",\"cardRaw\":\"$2\""; }

event_line() { echo "\"event\":\"$1\",\"channel\":1,\"round\":[^,]*,\"name\":\"$2\""; }

# Hidden while sealed on the air (the light mode); 8 where the strict mode
# sends it in clear and `--open` shows it.
vote_line() { echo "\"channel\":1,\"round\":$1,\"name\":\"$2\",\"card\":\"(hidden|8)\""; }

revealed_line() { echo "\"event\":\"revealed\",\"channel\":1,\"round\":$1,"; }

stale_count() {
  local lines=${2:-$(wc -l <"$E2E_WORK/watch.out")}
  head -n "$lines" "$E2E_WORK/watch.out" | grep -c "$(event_line stale "$1")" || true
}

samples() { local IFS=,; echo "$*"; }

values() { printf '%s\n' "$@"; }

figures() {
  local name=$1; shift
  metric "${name}_samples" "$(samples "$@")" ms
  metric "${name}_p50" "$(values "$@" | percentile 50)" ms
  metric "${name}_p95" "$(values "$@" | percentile 95)" ms
}

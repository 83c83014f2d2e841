# Two teams next door, each joining the README's way (docs/PROTOCOL.md,
# Finding a room): `estimator join --name X`, no channel, nothing
# remembered (each teammate has a configuration of their own, `as`). btvirt's
# radios all hear each other and read no signal, so the two teams are as
# close as can be: only the rule keeps them apart.
# 1. Team 1 (Ann, Bob, Cy on hci0-hci2) joins at once: all three choose
#    together (02), and land in one room, which is being set up (status
#    says until when).
# 2. Once team 1's room is no longer being set up (every status says so,
#    its sessions send 01: the room is busy), team 2 (Dan, Eve, Fay on
#    hci3-hci5) joins at once: all three land in one room, not team 1's.
# 3. No room found is channel 0, and each team's tables list only its own
#    (every status counts 2 people in its room).
# Figures (E2E-METRIC): the rooms each team landed in, whether they differ,
# and the longest join (it waits for the choosing).
# radios: 6
# timeout: 240

report_failure 20

names=(Ann Bob Cy Dan Eve Fay)

# Teammates FIRST..LAST join at once, each as on a laptop of their own;
# their answers are in $E2E_WORK/joinN.out, the longest join's ms in
# $E2E_WORK/longest.
join_team() { # join_team FIRST LAST
  local i pids=() started
  started=$(now_ms)
  for i in $(seq "$1" "$2"); do
    as "$i" join --adapter "hci$i" --name "${names[$i]}" >"$E2E_WORK/join$i.out" 2>"$E2E_WORK/join$i.err" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || fail "join on hci$(($1 + i)): $(cat "$E2E_WORK/join$(($1 + i)).out" "$E2E_WORK/join$(($1 + i)).err")"
  done
  echo $(($(now_ms) - started)) >"$E2E_WORK/longest"
}

# The room teammate N's join said it landed in.
room_of() { # room_of N
  local line
  line=$(cat "$E2E_WORK/join$1.out")
  [[ $line =~ ^joined\ room\ ([0-9]+)\ as\ ${names[$1]}\ on\ hci$1\  ]] ||
    fail "${names[$1]}'s join did not say a room: $line"
  [ "$(as "$1" status --adapter "hci$1" --json | jq -r .channel)" = "${BASH_REMATCH[1]}" ] ||
    fail "${names[$1]}'s session is not in the room its join said: $(as "$1" status --adapter "hci$1")"
  echo "${BASH_REMATCH[1]}"
}

# How many rooms teammates FIRST..LAST are in, and the room (the last one).
rooms_of() { # rooms_of FIRST LAST
  local i
  for i in $(seq "$1" "$2"); do room_of "$i"; done | sort -u >"$E2E_WORK/rooms"
  wc -l <"$E2E_WORK/rooms"
}

# Team N (teammates FIRST..LAST) joins at once and lands in one room, not
# channel 0: its room in $E2E_WORK/roomN, its longest join's ms in
# $E2E_WORK/longestN.
team_lands() { # team_lands N FIRST LAST
  local rooms
  join_team "$2" "$3"
  mv "$E2E_WORK/longest" "$E2E_WORK/longest$1"
  rooms=$(rooms_of "$2" "$3")
  echo "team $1 in $rooms room(s): $(tr '\n' ' ' <"$E2E_WORK/rooms")"
  metric "team$1_rooms" "$rooms" - '= 1'
  tail -1 "$E2E_WORK/rooms" >"$E2E_WORK/room$1"
  [ "$(cat "$E2E_WORK/room$1")" != 0 ] || fail "team $1 landed on channel 0, the app's"
}

# Whether teammate N's room is still being set up (03 on the air).
setting_up() { # setting_up N
  [ "$(as "$1" status --adapter "hci$1" --json | jq -r .settingUpUntil)" != null ]
}

# ---- 1. team 1 at once
team_lands 1 0 2
for i in 0 1 2; do
  [ ! -s "$E2E_WORK/join$i.err" ] || fail "${names[$i]}'s join wrote to standard error: $(cat "$E2E_WORK/join$i.err")"
  setting_up "$i" || fail "${names[$i]}'s room is not being set up right after the join"
done

# ---- 2. once team 1's room is set up, team 2 at once
for i in 0 1 2; do
  wait_until 75 eval "! setting_up $i"
done
team_lands 2 3 5
metric teams_apart "$([ "$(cat "$E2E_WORK/room1")" != "$(cat "$E2E_WORK/room2")" ] && echo 1 || echo 0)" - '= 1'
for i in 3 4 5; do
  ! grep -qE 'with .*(Ann|Bob|Cy)' "$E2E_WORK/join$i.out" || fail "${names[$i]} joined team 1: $(cat "$E2E_WORK/join$i.out")"
done
# The choosing's 6 s (12 s at most, while choosers are first heard), the
# confirming's 3 s, the start and the answer: well under the minute.
metric join_longest "$(cat "$E2E_WORK/longest1" "$E2E_WORK/longest2" | sort -n | tail -1 | seconds)" s '<= 20'

# ---- 3. each team's tables list only its own: two people, in its room
# (the rooms differ, so none of them is from the other team)
for i in 0 1 2 3 4 5; do
  wait_until 40 eval "[ \"\$(as $i status --adapter hci$i --json | jq -r .peers)\" = 2 ]"
done

# The room's first `estimator round`: three sessions on hci0-hci2
# vote before anyone has started a round (the packets carry no round), their
# cards are revealed, then `estimator round "ABC-1"` on hci2 starts round 1.
# Every watch announces the round (hci2's with its title), and every watch
# sees the two other sessions' cards cleared (card waiting, in round 1)
# within 3 s; each session's status says it has no card yet.
# radios: 3
# timeout: 180

report_failure 20 watch0 watch1 watch2
air_record

names=(Ann Bob Cy)
others() { local i; for i in 0 1 2; do [ "$i" = "$1" ] || echo "$i"; done; }
peer() { printf '"event":"%s","channel":1,"round":%s,"name":"%s"' "$1" "$2" "$3"; }

for i in 0 1 2; do
  estimator join --adapter hci$i --channel 1 --name "${names[$i]}" >/dev/null || fail "join on hci$i"
done
for i in 0 1 2; do bg_start watch$i estimator watch --adapter hci$i --json; done
for i in 0 1 2; do
  for j in $(others $i); do
    wait_until 20 grep -aq "\"name\":\"${names[$j]}\",\"card\":\"waiting\"" "$E2E_WORK/watch$i.out"
  done
done
picks=(8 5 3)
for i in 0 1 2; do estimator pick --adapter hci$i "${picks[$i]}" >/dev/null || fail "pick on hci$i"; done
for i in 0 1 2; do bg_expect watch$i '"event":"revealed","channel":1,"round":null' 20 >/dev/null; done

for i in 0 1 2; do bg_mark watch$i; done
started=$(now_ms)
reply=$(estimator round --adapter hci2 "ABC-1") || fail "round on hci2: $reply"
[[ $reply == *"round 1 (ABC-1) began in channel 1"* ]] || fail "round on hci2 said: $reply"
line_ms watch2 '"event":"round","channel":1,"round":1,"title":"ABC-1"' 5 "$started" >/dev/null
cleared=()
for i in 0 1; do
  # Titled with the story's key when the meeting's first part came in the
  # same announcement (docs/PROTOCOL.md, Meeting).
  line_ms watch$i '"event":"round","channel":1,"round":1,"title":(null|"ABC-1")' 5 "$started" >/dev/null
  for j in $(others $i); do
    cleared+=($(line_ms watch$j "$(peer '(card|back)' 1 "${names[$i]}"),\"card\":\"waiting\",\"cardRaw\":\"FC\"" 10 "$started"))
  done
done
echo "cleared cards seen after ${cleared[*]} ms"
metric first_round_cleared_seen_max "$(awk -v ms="$(printf '%s\n' "${cleared[@]}" | sort -n | tail -1)" 'BEGIN { printf "%.3f", ms / 1000 }')" s '<= 3'
for i in 0 1 2; do
  status=$(estimator status --adapter hci$i)
  [[ $status == *"no card yet"* && $status == *"round 1"* ]] || fail "hci$i after the first round: $status"
done

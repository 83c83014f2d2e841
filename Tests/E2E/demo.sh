# `make demo`: a room of scripted teammates on hci1-hci3 and you on hci0,
# your table shown live on the console, playing two stories: hidden votes,
# the reveal, a re-vote, the next story (`estimator round`), and at the end
# `estimator history` of what was played. Run by guest.sh like a scenario,
# with its output on the console (a terminal) instead of kept for a report.
# radios: 4
# timeout: 150

estimator join --adapter hci0 --channel 1 --name You >/dev/null || fail "join on hci0"
team=(전수열 Alice Bob)
# Each teammate keeps a history of their own, as on their own laptops: the
# one shown at the end is yours.
for i in 1 2 3; do
  XDG_STATE_HOME=$E2E_WORK/team$i estimator join --adapter hci$i --channel 1 --name "${team[$((i - 1))]}" \
    >/dev/null || fail "join on hci$i"
done
# Your table, on the console.
estimator watch --adapter hci0 &
table=$!

# The script's pace is a room's: people think, then pick.
pick() { sleep "$1"; estimator pick --adapter "hci$2" "$3" >/dev/null || fail "pick $3 on hci$2"; }
story() { sleep "$1"; estimator round --adapter "hci$2" "$3" >/dev/null || fail "round on hci$2"; }

# Story 1: votes stay hidden (✓) until the last one, then all show at once.
# A split (8 and 3 sit alone at the ends: they explain), then a re-vote.
story 3 0 "ABC-1 Login with passkeys"
pick 3 1 8
pick 2 3 3
pick 3 2 coffee
pick 3 0 5
pick 6 2 5
pick 4 1 5
pick 3 3 5

# Story 2, started by you: everyone's card clears, the room votes again.
story 6 0 "ABC-2 Export to CSV"
pick 3 2 2
pick 2 1 3
pick 3 3 2
pick 2 0 2
sleep 6
kill -INT "$table" 2>/dev/null
wait "$table" 2>/dev/null || true

printf '\n  What the room played (estimator history):\n\n'
estimator history | sed 's/^/    /'
rounds=$(estimator history --json | grep -c . || true)
[ "$rounds" -ge 2 ] || fail "the history holds $rounds rounds, not the 2 stories played"
printf '\n'
estimator leave --adapter hci0 >/dev/null

# `make demo`: a short planning meeting. You (hci0) run it from a backlog
# of three stories with scripted teammates on hci1-hci3, your table shown
# live on the console: hidden votes, the reveal, a consensus that settles
# by itself, a split the room settles on after a re-vote, a story revealed
# by the timer; then the board as the projector shows it, and the agreed
# estimates exported as CSV for the tracker. Run by guest.sh like a
# scenario, with its output on the console (a terminal) instead of kept
# for a report.
# radios: 4
# timeout: 180

# You join the README's way: the session finds a free room and says how
# the others join it.
joined=$(estimator join --adapter hci0 --name You) || fail "join on hci0: $joined"
echo "$joined"
[[ $joined =~ ^joined\ room\ ([0-9]+)\  ]] || fail "the join named no room: $joined"
room=${BASH_REMATCH[1]}
team=(전수열 Alice Bob)
# Each teammate keeps a history of their own, as on their own laptops: the
# one shown at the end is yours.
for i in 1 2 3; do
  XDG_STATE_HOME=$E2E_WORK/team$i estimator join --adapter hci$i --channel "$room" --name "${team[$((i - 1))]}" \
    >/dev/null || fail "join on hci$i"
done
# The sprint's stories, as a Jira export.
printf 'Issue key,Summary\nABC-1,Login with passkeys\nABC-2,Export the estimates\nABC-3,A board for the room\n' \
  >"$E2E_WORK/sprint-42.csv"
estimator backlog "$E2E_WORK/sprint-42.csv" >/dev/null || fail "backlog"
# Your table, on the console.
estimator watch --adapter hci0 &
table=$!

# The script's pace is a room's: people think, then pick.
pick() { sleep "$1"; estimator pick --adapter "hci$2" "$3" >/dev/null || fail "pick $3 on hci$2"; }
story() { sleep "$1"; estimator round --adapter hci0 "${@:2}" >/dev/null || fail "round on hci0"; }

# ABC-1: votes stay hidden (✓) until the last one, then all show at once;
# every card is 5, a consensus: the story is settled by itself.
story 3
pick 3 1 5
pick 2 3 5
pick 3 2 5
pick 2 0 5

# ABC-2: a split (8 and 2 sit alone at the ends: they explain), a re-vote
# that comes close, and you settle on the number the room agrees to.
story 5
pick 3 2 2
pick 2 1 8
pick 3 3 3
pick 2 0 3
pick 5 1 5
pick 2 2 3
sleep 2
estimator settle --adapter hci0 3 >/dev/null || fail "settle on hci0"

# ABC-3, with a 10-second timer: Bob is getting coffee, and the timer
# reveals without them.
story 5 --timer 10s
pick 3 2 8
pick 2 1 8
pick 2 0 8
sleep 7
kill -INT "$table" 2>/dev/null
wait "$table" 2>/dev/null || true

# The board, as the projector shows it at the end of the story.
estimator watch --adapter hci0 --board &
board=$!
sleep 6
kill -INT "$board" 2>/dev/null
wait "$board" 2>/dev/null || true

printf '\n  The agreed estimates, for the tracker (estimator history --csv):\n\n'
estimator history --csv | sed 's/^/    /'
rows=$(estimator history --csv | grep -c ABC- || true)
[ "$rows" -eq 3 ] || fail "the export holds $rows stories, not the 3 of the backlog"
printf '\n'
estimator leave --adapter hci0 >/dev/null

# `make demo`: a room of scripted teammates on hci1-hci3 and `estimator
# watch` on hci0, shown live on the console. Run by guest.sh like a scenario,
# with its output on the console (a terminal) instead of kept for a report.
# radios: 4
# timeout: 120

say() { printf '\033[2m%s\033[0m\n' "$*"; }

estimator join --adapter hci0 --channel 1 --name You >/dev/null || fail "join on hci0"
team=(전수열 Alice Bob)
for i in 1 2 3; do
  estimator join --adapter hci$i --channel 1 --name "${team[$((i - 1))]}" >/dev/null || fail "join on hci$i"
done
# What hci0 hears, for the summary.
bg_start heard estimator watch --adapter hci0 --json
# The table itself, on the console.
estimator watch --adapter hci0 &
table=$!

# A round: people think, pick over time, one wants coffee, a split, a re-vote.
pick() { sleep "$1"; estimator pick --adapter "hci$2" "$3" >/dev/null; }
estimator pick --adapter hci0 5 >/dev/null
pick 3 1 8
pick 2 3 3
pick 3 2 coffee
pick 4 2 5
pick 4 3 5
pick 4 1 5
sleep 6
kill -INT "$table" 2>/dev/null; wait "$table" 2>/dev/null
bg_stop heard || true

printf '\n  The room picked:\n'
# The last card each person was heard with (name TAB card, by name), and mine.
last_cards() {
  awk -F'"' '/"event":"(joined|card|back)"/ { for (i = 1; i < NF; i++) { if ($i == "name") n = $(i + 2); if ($i == "card") c = $(i + 2) } last[n] = c }
    END { for (n in last) printf "%s\t%s\n", n, last[n] }' "$E2E_WORK/heard.out" | sort
  printf 'You\t5\n'
}
# Pads to a number of terminal columns: wc -L counts display width (전 takes
# two columns in three bytes), where printf's %-8s counts bytes.
pad() {
  local fill=$(($2 - $(printf '%s' "$1" | wc -L)))
  printf '%s%*s' "$1" $((fill > 0 ? fill : 0)) ''
}
while IFS=$'\t' read -r name card; do
  printf '    %s %s\n' "$(pad "$name" 8)" "$card"
done < <(last_cards)
cards=$(last_cards | cut -f2)
numbers=$(printf '%s\n' $cards | grep -E '^[0-9.]+$' | sort -n)
count=$(printf '%s\n' $numbers | grep -c . || true)
median=$(printf '%s\n' $numbers | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
if [ "$(printf '%s\n' $numbers | sort -u | grep -c .)" -eq 1 ] && [ "$count" -eq 4 ]; then
  printf '\n  median %s · consensus: everyone picked %s\n\n' "$median" "$median"
else
  printf '\n  median %s · no consensus yet\n\n' "$median"
fi
estimator leave --adapter hci0 >/dev/null

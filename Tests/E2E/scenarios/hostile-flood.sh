# Hostile input over the air: 500 distinct names in one channel.
# Three radios rotate through them (advertise, wait until heard, replace).
# Memory stays bounded: the session and its watches keep at most 64 peers per
# channel (EstimatorKit's PeerTable) and count the rest, not shown: the
# --json watch reports exactly 64 joins, the table says "436 more not shown",
# `status` counts 64. --stale 600 keeps everyone heard for the whole run.
# Figures: the session's resident memory before and after, how long the 500
# took, how many rounds were advertised again (not heard within 3 s).
# radios: 4
# timeout: 600

report_failure 20 json
total=500 cap=64

estimator join --adapter hci0 --channel 2 --name Host --stale 600 >/dev/null || fail "join on hci0"
session=$(estimator status --adapter hci0 | sed -n 's/^session pid \([0-9]*\).*/\1/p')
bg_start json estimator watch --adapter hci0 --json --stale 600
# A short screen: the header line carries the count; fewer rows, less output.
bg_start table script -qfec "stty rows 12 cols 100; exec estimator watch --adapter hci0 --stale 600" /dev/null
wait_until 10 grep -aq 'channel 2' "$E2E_WORK/table.out"
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$session/status"; }
rss_before=$(rss_kb)

# One interactive btmgmt per advertising radio, and a loop of shell builtins
# only: a process per name, or per poll, is slow in the emulated machine.
for r in 1 2 3; do bg_start "adv$r" script -qfec "btmgmt --index $r" /dev/null; done
tick() { now=$((${EPOCHREALTIME/./} / 1000)); }  # $now in ms, as a builtin
advertise_on() { # RADIO NAME (ASCII): the name as a scan response, instance 1
  local i hex=
  for ((i = 0; i < ${#2}; i++)); do printf -v hex '%s%02x' "$hex" "'${2:i:1}"; done
  printf -v hex '%02x09%s' $((${#2} + 1)) "$hex"
  printf 'add-adv -g -u %s -s %s 1\n' "$E2E_UUID" "$hex" >"$E2E_WORK/adv$1.in"
}
exec {json_fd}<"$E2E_WORK/json.out" {table_fd}<"$E2E_WORK/table.out"

# Names heard so far: the joins the JSON shows plus the table header's count
# of those not shown. Both files are read on from where they were left.
shown=0 more=0 table_tail=
heard() {
  local chunk joined='"event":"joined"'
  IFS= read -r -d '' -u "$json_fd" chunk || true
  local rest=${chunk//"$joined"/}
  shown=$((shown + (${#chunk} - ${#rest}) / ${#joined}))
  IFS= read -r -d '' -u "$table_fd" chunk || true
  chunk=$table_tail$chunk
  table_tail=${chunk: -80}
  while [[ $chunk =~ ([0-9]+)\ more\ not\ shown(.*) ]]; do
    more=${BASH_REMATCH[1]}
    chunk=${BASH_REMATCH[2]}
  done
  n=$((shown + more))
}
name() { printf -v "$1" '010205Flood%03d' "$2"; }

tick
retries=0 started=$now
for ((first = 0; first < total; first += 3)); do
  last=$((first + 2 < total - 1 ? first + 2 : total - 1))
  for try in 1 2 3 4 5; do
    for ((i = first; i <= last; i++)); do name text "$i"; advertise_on $((i - first + 1)) "$text"; done
    tick
    deadline=$((now + 3000))
    heard
    while [ "$n" -le "$last" ] && [ "$now" -lt "$deadline" ]; do nap 0.05; heard; tick; done
    [ "$n" -le "$last" ] || break
    if [ "$try" -eq 5 ]; then
      for r in 1 2 3; do tail -n 3 "$E2E_WORK/adv$r.out" | cat -v; done
      fail "names $first-$last were not all heard (heard $n of $((last + 1)))"
    fi
    retries=$((retries + 1))
  done
  [ $((first % 60)) -ne 0 ] || echo "heard $n names after $((now - started)) ms ($retries re-advertised)"
done
tick
echo "the flood took $((now - started)) ms ($retries re-advertised)"
rss_after=$(rss_kb)

joins=$(grep -ac '"event":"joined"' "$E2E_WORK/json.out")
distinct=$(jq -r 'select(.event == "joined") | .name' "$E2E_WORK/json.out" | sort -u | wc -l)
status=$(estimator status --adapter hci0)
echo "$status"
# The table shows the cap and counts the rest; the JSON has each shown name once.
metric names_shown "$joins" - "= $cap"
[ "$distinct" = "$cap" ] || fail "the JSON shows $joins joins of $distinct names, not $cap"
metric names_counted_not_shown "${more:-0}" - "= $((total - cap))"
[[ $status == *"$cap people heard in channel 2"* ]] || fail "status does not count $cap people"
# What $total names cost the session, from $rss_before kB: under 8 MB.
metric session_rss_growth "$((rss_after - rss_before))" kB '< 8192'

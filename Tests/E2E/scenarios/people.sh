# The record holds whatever people do (issue 52): one true result per
# round, on every laptop. Olga runs the rounds (hci0, `join --observer`);
# Ann, Bob and Cara vote (hci1-hci3). Each round is begun by Olga with a
# title of its own (P-1 ... P-3), and votes are cast once every laptop is
# in the round with its title. Each laptop's record is its `history --json`
# (every round: each has a story of its own) and, for how many lines a
# round has, its history file.
# 1. Two voters leave mid-round: Ann picks 5, Bob and Cara `leave` before
#    voting; the round reveals with Ann's card alone, and Olga's and Ann's
#    records of it have that one vote, no consensus and no agreed estimate
#    (one vote agrees with nobody).
# 2. `leave; join` at once, three times in a row (Bob): every join succeeds,
#    each with a session of its own (`leave` returns once the session has
#    ended).
# 3. kill -9 and rejoin while a round is revealed: Ann 3, Bob 13, Cara 5,
#    Olga settles 5; Bob's session is killed and he joins again as the
#    round stays revealed. Once his new session has reported the round,
#    his history still has one line for it: every vote, agreed 5.
# 4. A laptop that sleeps through a reveal: Cara votes 8, her session is
#    stopped (SIGSTOP, a closed lid) for 60 s, past the 30 s clock jump a
#    session notices, while Ann and Bob vote and the room reveals;
#    continued, her record of the round becomes the others', the settle of
#    step 5 included; no new round begins anywhere (watched past the 6 s a
#    woken session takes to rejoin), and she ends in round 3, revealed,
#    with her 8 (over the air, her last packet is 330108Cara).
# 5. While Cara sleeps, a change the session cannot save: Ann's session's
#    file-size limit at 0 (prlimit), `settle 2` exits 74 with one sentence
#    naming her history file, and her status says `history: not saved
#    since`; the limit raised, the session's retry (10 s) writes what it
#    held: agreed 2, on every laptop awake.
# 6. Every round, every laptop: one line per round in each history file;
#    each laptop's record of a round (all but `id` and `time`, which are the
#    laptop's own) the same on every laptop that heard it, as the room voted
#    it (no vote under another name, no one-vote agreement).
# Figures (E2E-METRIC): the rounds compared and the votes compared (each
# laptop's record of each round counted).
# With PEOPLE_PATH=relay (people-relay.sh) the same runs through the relay:
# every laptop on `--adapter none`, with a runtime folder of its own, meeting
# through a mosquitto in the guest.
# Steps 1-3 leave and rejoin sessions on purpose; the 60 s of step 4 is
# the sleep under test.
# radios: 4
# timeout: 300

people_path=${PEOPLE_PATH:-air}
report_failure 20 watch0 $([ "$people_path" = air ] || echo broker)
air_record
command -v prlimit >/dev/null || fail "no prlimit in the guest (util-linux): step 5 needs it"

names=(Olga Ann Bob Cara)
laptops=(0 1 2 3)
relay=()
if [ "$people_path" = relay ]; then
  # The guest's init brings no network up, not even loopback.
  ip link set lo up
  {
    printf 'listener 1883 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\n'
    [ "$(id -u)" != 0 ] || echo "user root"
  } >"$E2E_WORK/mosquitto.conf"
  bg_start broker mosquitto -c "$E2E_WORK/mosquitto.conf"
  bg_expect broker ' running' 15 >/dev/null
  relay=(--relay mqtt://127.0.0.1:1883/people)
  for i in "${laptops[@]}"; do mkdir -p -m 0700 "$E2E_WORK/runtime$i"; done
fi
adapter_of() { if [ "$people_path" = relay ]; then echo none; else echo "hci$1"; fi; }
# Through the relay every session is on `none`: each laptop has a runtime
# folder of its own, as it would on its own machine.
runtime_of() { if [ "$people_path" = relay ]; then echo "$E2E_WORK/runtime$1"; else echo "$XDG_RUNTIME_DIR"; fi; }
as() { # as N COMMAND...
  local n=$1; shift
  XDG_RUNTIME_DIR=$(runtime_of "$n") XDG_CONFIG_HOME=$E2E_WORK/config$n XDG_STATE_HOME=$E2E_WORK/state$n estimator "$@"
}
join_as() { # join_as N OPTION...
  local n=$1; shift
  as "$n" join --adapter "$(adapter_of "$n")" --channel 1 --name "${names[$n]}" "${relay[@]}" "$@" >"$E2E_WORK/join$n.out" 2>&1 ||
    fail "join on $(adapter_of "$n"): $(cat "$E2E_WORK/join$n.out")"
}
table_of() { # table_of N: laptop N's table, as a terminal shows it
  local cmd; cmd=$(printf '%q ' env XDG_RUNTIME_DIR="$(runtime_of "$1")" XDG_CONFIG_HOME="$E2E_WORK/config$1" \
    XDG_STATE_HOME="$E2E_WORK/state$1" TERM=xterm NO_COLOR=1 estimator watch --once --adapter "$(adapter_of "$1")")
  timeout 20 script -qec "$cmd" /dev/null </dev/null | tr -d '\r'
}
history_file() { echo "$E2E_WORK/state$1/estimator/history.jsonl"; }
# Every laptop's history file, for a failure's report.
failure_extra() {
  local i
  for i in 0 1 2 3; do
    echo "---- ${names[$i]}'s $(history_file "$i") ----"
    cat -v "$(history_file "$i")" 2>/dev/null || echo "(none)"
  done
}

pid_of() { # pid_of I: the pid of laptop I's session
  local pid
  pid=$(as "$1" status --adapter "$(adapter_of "$1")" | sed -n 's/^session pid \([0-9]*\).*/\1/p')
  [ -n "$pid" ] || fail "no pid in ${names[$1]}'s status"
  echo "$pid"
}
# Laptop I's `status --json` passes the jq test TEST (round N as $n); what
# it said is left for wait_until's reason.
status_is() { # status_is I N TEST
  as "$1" status --adapter "$(adapter_of "$1")" --json >"$E2E_WORK/said" 2>&1 &&
    jq -e --argjson n "$2" "$3" "$E2E_WORK/said" >/dev/null
}
in_round() { status_is "$1" "$2" '.round == $n and .title == "P-\($n)"'; }
revealed_on() { status_is "$1" "$2" '.round == $n and .revealed'; }
# Laptop I's record of round N, as `history --json` gives it, without its
# `id`, `time` and `joined` (the laptop's own), keys sorted: empty when it
# has none.
record_of() { # record_of I N
  as "$1" history --json 2>/dev/null | jq -cS --argjson n "$2" 'select(.channel == 1 and .round == $n) | del(.id, .time, .joined)'
}
# Laptop I's record of round N passes the jq test TEST; the record is left
# for wait_until's reason.
record_is() { # record_is I N TEST
  record_of "$1" "$2" >"$E2E_WORK/said"
  [ -s "$E2E_WORK/said" ] && jq -e "$3" "$E2E_WORK/said" >/dev/null
}
# The lines of laptop I's history file for round N of channel 1.
lines_of() { # lines_of I N
  local file; file=$(history_file "$1")
  [ -e "$file" ] || { echo 0; return; }
  jq -c --argjson n "$2" 'select(.channel == 1 and .round == $n)' "$file" | wc -l
}
one_line() { # one_line I N: laptop I's history file has one line for round N
  local lines; lines=$(lines_of "$1" "$2")
  [ "$lines" = 1 ] || fail "${names[$1]}'s history has $lines lines for round $2, not 1: $(jq -c --argjson n "$2" 'select(.round == $n)' "$(history_file "$1")" | tr '\n' '|')"
}
# Laptop I's history has a line for round N with an id other than ID: a
# later session's report of the round took it.
reported_anew() { # reported_anew I N ID
  jq -e --argjson n "$2" --arg id "$3" 'select(.channel == 1 and .round == $n and .id != $id)' "$(history_file "$1")" >/dev/null
}
votes_are() { printf '(.votes | map("\\(.name)=\\(.card)")) == %s' "$(printf '%s\n' "$@" | jq -Rsc 'split("\n")[:-1]')"; }
# Olga begins round N, titled P-N: every laptop in the room (`laptops`) is in
# it with its title before anyone votes.
begin() { # begin N
  local i reply
  reply=$(as 0 round --adapter "$(adapter_of 0)" "P-$1") || fail "Olga's round: $reply"
  [[ $reply == "round $1 (P-$1) began in channel 1"* ]] || fail "Olga's round said: $reply"
  for i in "${laptops[@]}"; do wait_until 20 in_round "$i" "$1"; done
}
# A step's start, with the seconds since the first join, for the output.
step() { echo "$(( ($(now_ms) - started) / 1000 )) s: $*"; }
pick() { # pick I CARD
  as "$1" pick --adapter "$(adapter_of "$1")" "$2" >/dev/null || fail "${names[$1]}'s pick $2"
}

started=$(now_ms)
join_as 0 --observer
join_as 1
join_as 2
join_as 3
bg_start watch0 as 0 watch --adapter "$(adapter_of 0)" --json

# 1. Ann votes; Bob and Cara leave before voting: the round reveals with
#    her card alone, and one vote agrees with nobody.
step "1. two voters leave mid-round"
begin 1
pick 1 5
bg_expect watch0 '"event":"(voted|back)","channel":1,"round":1,"name":"Ann"' 15 >/dev/null
for i in 2 3; do
  reply=$(as $i leave --adapter "$(adapter_of $i)" 2>&1) || fail "${names[$i]}'s leave: $reply"
done
laptops=(0 1)
for i in 0 1; do
  wait_until 20 record_is $i 1 'true'
  record_is $i 1 "$(votes_are Ann=5) and .consensus == false and .agreed == null" ||
    fail "${names[$i]}'s record of round 1, which Ann alone voted in: $(cat "$E2E_WORK/said")"
done
# Olga's table says so: no consensus of one.
table_of 0 >"$E2E_WORK/table0.out"
grep -q "one vote: 5" "$E2E_WORK/table0.out" || fail "Olga's table after round 1 has no 'one vote: 5': $(tail -5 "$E2E_WORK/table0.out" | cat -v)"

# 2. leave; join at once, three times in a row: every join a new session.
step "2. leave; join at once, three times"
join_as 2
before=$(pid_of 2)
for n in 1 2 3; do
  reply=$(as 2 leave --adapter "$(adapter_of 2)" 2>&1) || fail "Bob's leave $n: $reply"
  out=$(as 2 join --adapter "$(adapter_of 2)" --channel 1 --name Bob "${relay[@]}" 2>&1) ||
    fail "Bob's join $n right after his leave: $out"
  [[ $out == *"joined channel 1 as Bob on $(adapter_of 2)"* ]] || fail "Bob's join $n said: $out"
  pid=$(pid_of 2)
  [ "$pid" != "$before" ] || fail "Bob's join $n after his leave is still session $pid"
  before=$pid
done
join_as 3
laptops=(0 1 2 3)

# 3. kill -9 and rejoin while the round is revealed: his history still has
#    one line for the round, with every vote and the agreed estimate.
step "3. kill -9 and rejoin while the round is revealed"
begin 2
pick 1 3
pick 2 13
pick 3 5
for i in "${laptops[@]}"; do wait_until 20 revealed_on "$i" 2; done
reply=$(as 0 settle --adapter "$(adapter_of 0)" 5) || fail "Olga's settle 5: $reply"
[[ $reply == "round 2 (P-2) settled at 5" ]] || fail "Olga's settle said: $reply"
for i in "${laptops[@]}"; do
  wait_until 20 record_is "$i" 2 "$(votes_are Ann=3 Bob=13 Cara=5) and .agreed == \"5\""
done
one_line 2 2
id=$(jq -r 'select(.channel == 1 and .round == 2) | .id' "$(history_file 2)")
kill -9 "$(pid_of 2)"
join_as 2
wait_until 20 revealed_on 2 2
# The new session's report of the round takes the line (its id): one line.
wait_until 30 reported_anew 2 2 "$id"
one_line 2 2
record_is 2 2 "$(votes_are Ann=3 Bob=13 Cara=5) and .agreed == \"5\"" ||
  fail "Bob's record of round 2 after his kill -9 and rejoin: $(cat "$E2E_WORK/said")"

# 4. Cara votes and sleeps through the reveal: 60 s, as a closed lid.
step "4. Cara sleeps through a reveal"
begin 3
pick 3 8
bg_expect watch0 '"event":"(voted|back)","channel":1,"round":3,"name":"Cara"' 15 >/dev/null
cara=$(pid_of 3)
sleepers=("$cara")
asleep=$(votes_are Ann=8 Bob=5 Cara=8)
if [ "$people_path" = relay ]; then
  # The lid stops the laptop's relay too (the session's child): Cara goes
  # when the broker's keep-alive drops her (15 s) or her presence runs out
  # unrefreshed and turns stale (18 + 6 s), her vote still sealed, and the
  # room reveals the cards it has; her 8 comes when she wakes.
  sleepers+=($(pgrep -P "$cara"))
  asleep=$(votes_are Ann=8 Bob=5)
fi
slept=$(now_ms)
kill -STOP "${sleepers[@]}"
pick 1 8
pick 2 5
for i in 0 1 2; do
  wait_until 40 record_is "$i" 3 "$asleep"
done

# 5. While Cara sleeps, Ann's session cannot save: settle fails, status says
#    since when; the limit raised, the retry writes what the session held.
step "5. a change Ann's session cannot save, while Cara sleeps"
ann=$(pid_of 1)
prlimit --pid "$ann" --fsize=0 || fail "prlimit could not set the file-size limit of Ann's session"
status=0
reply=$(as 1 settle --adapter "$(adapter_of 1)" 2 2>&1) || status=$?
[ "$status" = 74 ] || fail "settle 2 with the history unwritable exited $status, not 74: $reply"
[ "$(wc -l <<<"$reply")" = 1 ] || fail "settle 2 with the history unwritable said more than one line: $reply"
[[ $reply == *"$(history_file 1)"* ]] || fail "settle 2 with the history unwritable did not name $(history_file 1): $reply"
reply=$(as 1 status --adapter "$(adapter_of 1)") || fail "Ann's status: $reply"
[[ $reply == *"history: not saved since "* ]] || fail "Ann's status with a change unsaved: $reply"
record_is 1 3 '.agreed == null' || fail "Ann's history changed with its file-size limit at 0: $(cat "$E2E_WORK/said")"
prlimit --pid "$ann" --fsize=unlimited || fail "prlimit could not raise the file-size limit of Ann's session"
wait_until 25 record_is 1 3 '.agreed == "2"'
reply=$(as 1 status --adapter "$(adapter_of 1)") || fail "Ann's status: $reply"
[[ $reply != *"not saved"* ]] || fail "Ann's status after the retry: $reply"
for i in 0 2; do wait_until 20 record_is "$i" 3 '.agreed == "2"'; done

left=$((60000 - ($(now_ms) - slept)))
[ "$left" -gt 0 ] || fail "the others took $((60 - left / 1000)) s to reveal and settle round 3 while Cara slept"
nap "$(seconds <<<"$left")"  # the sleep under test
kill -CONT "${sleepers[@]}"
continued_ms=$(now_ms) continued=$(date -u +%T.%3N)
for i in 0 1 2 3; do wait_until 40 record_is "$i" 3 "$(votes_are Ann=8 Bob=5 Cara=8)"; done
wait_until 10 eval '[ "$(record_of 3 3)" = "$(record_of 0 3)" ]'
one_line 3 3
wait_until 10 status_is 3 3 '.round == $n and .revealed and .card == "8"'

# 6. Every round on every laptop: one line each, the same record, as voted.
step "6. every round on every laptop"
expected=(
  [1]="$(votes_are Ann=5) and .consensus == false and .agreed == null"
  [2]="$(votes_are Ann=3 Bob=13 Cara=5) and .consensus == false and .agreed == \"5\""
  [3]="$(votes_are Ann=8 Bob=5 Cara=8) and .consensus == false and .agreed == \"2\""
)
rounds=0 votes=0
for n in 1 2 3; do
  reference= from=
  for i in "${laptops[@]}"; do
    lines=$(lines_of "$i" "$n")
    # Round 1 was revealed before Bob and Cara came back: theirs may hold it or not.
    if [ "$lines" = 0 ] && { [ "$n" = 1 ] && [ "$i" -ge 2 ]; }; then continue; fi
    one_line "$i" "$n"
    record=$(record_of "$i" "$n")
    jq -e "${expected[$n]} and .title == \"P-$n\" and (.story == null or .story.key == \"P-$n\")" <<<"$record" >/dev/null ||
      fail "${names[$i]}'s record of round $n is not as the room voted it: $record"
    jq -e '(.votes | length) >= 2 or (.consensus == false and .agreed == null)' <<<"$record" >/dev/null ||
      fail "${names[$i]}'s record of round $n agrees on one vote: $record"
    if [ -z "$reference" ]; then
      reference=$record from=${names[$i]}
    else
      [ "$record" = "$reference" ] || fail "${names[$i]}'s record of round $n differs from $from's: $record / $reference"
    fi
    votes=$((votes + $(jq '.votes | length' <<<"$record")))
  done
  rounds=$((rounds + 1))
done
# Olga and Ann were there from round 1, and Bob and Cara rejoined a meeting
# their laptops had heard: no history says it joined a meeting under way.
for i in "${laptops[@]}"; do
  joined=$(as "$i" history --json 2>/dev/null | jq -c 'select(.joined != null)')
  [ -z "$joined" ] || fail "${names[$i]}'s history says it joined the meeting under way: $joined"
done
# Step 4's wake: a wrong rejoin shows within the rejoin window (6 s after
# Cara's session continued), as a round no one began.
rest=$((7000 - ($(now_ms) - continued_ms)))
[ "$rest" -le 0 ] || nap "$(seconds <<<"$rest")"
! grep -aq '"event":"round","channel":1,"round":4' "$E2E_WORK/watch0.out" ||
  fail "a round began after Cara's laptop woke: $(grep -a '"event":"round"' "$E2E_WORK/watch0.out" | tail -1)"
for i in "${laptops[@]}"; do
  status_is "$i" 3 '.round == $n and .revealed' || fail "${names[$i]} after Cara's sleep: $(cat "$E2E_WORK/said")"
done
if [ "$people_path" = air ]; then
  # What Cara's radio sent since it went on again: the last is round 3,
  # revealed, with her card.
  air=$(TZ=UTC btmon -t -r "$E2E_WORK/air.snoop" 2>/dev/null |
    awk -v from="$continued" '/^[<>@=] / { split($NF, c, ":"); t = c[1] * 3600 + c[2] * 60 + c[3] }
      /Name \(complete\): .*Cara$/ { split(from, f, ":"); if (t >= f[1] * 3600 + f[2] * 60 + f[3]) print $NF }')
  [ "$(tail -1 <<<"$air")" = "330108Cara" ] || fail "Cara's last packet after her sleep is '$(tail -1 <<<"$air")', not 330108Cara"
fi
echo "compared $rounds rounds and $votes votes"
# Round 1 on Olga's and Ann's laptops at least (1 vote each), rounds 2-3 on all four (3 each).
metric people_rounds_compared "$rounds" - '= 3'
metric people_votes_compared "$votes" - '>= 26'
for i in "${laptops[@]}"; do as $i leave --adapter "$(adapter_of $i)" >/dev/null; done
echo "ok"

# Helpers for scenarios, sourced by bash inside the guest (guest.sh sources
# it before every scenario). A scenario is a bash script run with -e in a
# fresh stack: the system bus, bluetoothd and its radios (hci0...), with
# E2E_WORK a tmpfs folder of its own and HOME/XDG_* inside it.
#
#   fail MESSAGE                  the scenario fails with this reason (and
#                                 bluetoothd's last log lines if it ended)
#   metric NAME VALUE UNIT BOUND  a figure for the host's summary and metrics
#                                 file (UNIT - for a count), and the bound it
#                                 must keep, "OP LIMIT" with OP one of <= < >= =:
#                                 the scenario fails outside it
#   wait_until SECONDS CMD...     until CMD succeeds, or fail (with what CMD
#                                 left in $E2E_WORK/said, if anything)
#   now_ms                        milliseconds, for latencies
#   seen_ms NAME REGEX SECS START bg_expect for a `watch --json` line, then ms
#                                 from START (now_ms) to the line's own time
#   line_ms NAME REGEX SECS START the same for NAME's first such line since its
#                                 mark, consuming nothing (lines in any order)
#   time_ms LINE                  a `watch --json` line's own time, in ms
#   report_failure LINES WATCH... on failure, the sessions' logs, the watches'
#                                 last LINES lines, the air and failure_extra's
#   measuring MS                  the moment the report shows in full
#   percentile P                  of the numbers on standard input, nearest rank
#   seconds                       milliseconds on standard input as seconds
#
#   bg_start NAME CMD...          CMD in the background, output in $E2E_WORK/NAME.out
#   bg_expect NAME REGEX [SECS]   next output line matching REGEX (printed), or fail
#                                 (with NAME's last lines)
#   bg_await NAME REGEX [SECS]    the same, but returns 1 instead of failing
#   bg_expect_none NAME REGEX SECS  fail if such a line comes within SECS
#   bg_expect_all NAME SECS REGEX...  bg_expect for each, in any order
#   bg_mark NAME                  later bg_expect calls see only newer lines
#   bg_send NAME TEXT             a line to its standard input
#   bg_stop NAME [SIGNAL]         signal it (TERM) and wait for it to end
#   bg_pid NAME
#
#   as N COMMAND...               estimator as teammate N, with configuration and
#                                 state of their own, as on a laptop
#   join_as N OPTION...           teammate N joins channel 1 on hciN as
#                                 ${names[N]} (the scenario's array), or fail
#
#   radio_add / radio_remove N    an extra radio (hears nobody) / unplug it
#   mgmt ARGS...                  btmgmt ARGS (on a pty, else it prints nothing)
#   bluetoothd_restart            (and bluetoothd_stop, bluetoothd_start)
#   adapter_power N on|off        through the kernel's management interface
#   radio_says ADAPTER TEXT       its session's `status` says "radio: TEXT..."
#   advertise N NAME              service UUID + NAME as scan response, by btmgmt
#                                 (a laptop's whole packet, or a future app's)
#   advertise_raw N SCANRSP_HEX   service UUID + raw scan-response bytes
#   ad_local_name BYTES           hex of a "complete local name" AD structure
#   iphone_advertise N PACKET     hciN advertises as an iPhone running the app
#                                 (Tests/Air's model): PACKET cut to 8 bytes
#   iphone_new_address N          the iPhone on hciN takes a new address (printed)
#   iphone_send N PACKET          the iPhone on hciN sends PACKET (cut), same address
#   iphone_address N              the address the iPhone on hciN advertises from
#   bluez_devices_named N NAME    the addresses of hciN's Device1 objects named NAME
#   scan_start N / scan_stop      BlueZ discovery on hciN (bluetoothctl)
#   scan_expect_name REGEX [SECS] object path of the device with that name
#   scan_await_name REGEX [SECS]  whether such a device is reported in time
#   bluez_property PATH IFACE PROP   dbus-send's reply, e.g. Device1 UUIDs
#   discovering N                 whether BlueZ says hciN is discovering
#   active_instances N            how many advertisements BlueZ says hciN has on
#   name_hex PATH                 hex of a device's Name as BlueZ has it
#   air_record                    btmon records every radio from now on
#   air_timeline SECONDS [UNTIL]  what the radios did in the SECONDS before
#                                 UNTIL (HH:MM:SS[.frac], UTC), else the end
#   air_unheard FROM UNTIL        per radio and advertiser heard between two
#                                 such times: its longest silence, in seconds
#   air_misses FROM UNTIL         per pair of radios: announcements of one the
#                                 other was deaf to, and how often in a row
#   air_first_start_heard L S     for each moment on stdin: whether hciL could
#                                 hear hciS's next advertising start
#   air_radio_stats FROM UNTIL    per radio between two such times: the share
#                                 of time it could not hear (scan off, or on
#                                 before the kernel's "Discovering") and its
#                                 advertising starts per minute

# The Estimator app's service UUID (docs/PROTOCOL.md, Advertisement).
E2E_UUID=FB3367FD-09F8-4E08-9F6B-07E309FD2576
BLUETOOTHD=/usr/libexec/bluetooth/bluetoothd
# Its debug log, for a failure's report and air.sh's count of device-found
# events: the adapter's and the advertisements' files alone. With every file
# (device.c most of all) it wrote 3 MB in a 4-minute scenario, a share of
# the guest's emulated CPUs the stack under test was waiting for.
BLUETOOTHD_DEBUG=--debug='*src/adapter.c:*src/advertising.c:*src/main.c'

# The first failure is the scenario's reason; later ones (the same failure
# seen by callers) only add to its output. With it, bluetoothd's last log
# lines when bluetoothd has ended by itself: the log says why, and it goes
# with the guest.
fail() {
  if [ ! -s "$E2E_WORK/reason" ]; then
    printf '%s\n' "$*" >"$E2E_WORK/reason"
    bluetoothd_last_words >&2
  fi
  printf '\nFAIL: %s\n' "$*" >&2
  exit 1
}

bluetoothd_last_words() {
  local pid
  pid=$(cat "$E2E_WORK/bluetoothd.pid" 2>/dev/null) || return 0
  kill -0 "$pid" 2>/dev/null && return 0
  echo "---- bluetoothd (pid $pid) is gone: the end of its log ----"
  tail -n 60 "$E2E_WORK/bluetoothd.log"
}

# A scenario's figure and its bound, one line for the host (rig.sh): the
# console's "E2E-METRIC SCENARIO NAME VALUE UNIT BOUND" (the bound without
# its space), then the check. A figure nothing judges has no place here.
# The rooms' roles (rooms/) leave the bound out: they are judged as a room,
# on the host (rooms.sh).
metric() {
  local name=$1 value=${2:-(none)} unit=${3:--} bound=${4:-}
  printf 'E2E-METRIC %s %s %s %s%s\n' "$E2E_SCENARIO" "$name" "$value" "$unit" "${bound:+ ${bound// /}}"
  [ -z "$bound" ] || within "$value" "$bound" ||
    fail "$name is $value$([ "$unit" = - ] || echo " $unit"), not $bound"
}

# Whether VALUE keeps BOUND ("OP LIMIT"): numbers compared as numbers, a
# word (the radio's mode) only by "=".
within() {
  local op=${2%% *} limit=${2#* }
  case $op in
    '<=' | '<' | '>=' | '>' | '=') ;;
    *) fail "bound '$2': OP LIMIT, with OP one of <= < >= =" ;;
  esac
  [ "$op" = = ] && [ "$1" = "$limit" ] && return 0
  awk -v v="$1" -v l="$limit" -v op="$op" 'BEGIN {
    if (v !~ /^-?[0-9]+(\.[0-9]+)?$/ || l !~ /^-?[0-9]+(\.[0-9]+)?$/) exit 1
    v += 0; l += 0
    exit !(op == "<=" ? v <= l : op == "<" ? v < l : op == ">=" ? v >= l : op == ">" ? v > l : v == l)
  }'
}

# The scenario's own waiting is kept off the guest's two emulated CPUs,
# which the stack it measures needs: the clock is bash's own
# ($EPOCHREALTIME), and a poll sleeps in a builtin `read` on a fifo nobody
# writes, where `date` and `sleep` would start a process each time.
now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }
nap() { # nap SECONDS
  [ -n "${_nap_fd:-}" ] || { mkfifo "$E2E_WORK/.nap" && exec {_nap_fd}<>"$E2E_WORK/.nap"; }
  read -r -t "$1" -u "$_nap_fd" _ || true
}

# Waits for NAME's next `watch --json` line matching REGEX (as bg_expect)
# and prints how many ms after START (a now_ms) the watch saw that change, by
# the line's own `time`: the moment the change became visible, without the
# time the scenario takes to notice it (bg_expect starts tail and timeout,
# most of a second in the emulated guest). The guest has one clock; a time
# before START or after now is a bug of the watch's and fails.
seen_ms() {
  local name=$1 regex=$2 seconds=$3 start=$4 line time at
  line=$(bg_expect "$name" "$regex" "$seconds") || exit 1
  time=$(sed -n 's/.*"time":"\([^"]*\)".*/\1/p' <<<"$line")
  [ -n "$time" ] || fail "no time in $name's line: $(printf '%s' "$line" | cat -v)"
  at=$(date -d "$time" +%s%3N)
  [ "$at" -ge "$start" ] && [ "$at" -le "$(now_ms)" ] ||
    fail "$name's line says $time, outside the wait that read it: $(printf '%s' "$line" | cat -v)"
  echo $((at - start))
}

# As seen_ms, for the first line matching REGEX (awk ERE) after NAME's mark
# (bg_mark), without consuming anything: several lines that come in any
# order are timed one by one.
line_ms() {
  local name=$1 regex=$2 seconds=$3 start=$4 line at
  local from=$(($(cat "$E2E_WORK/$name.seen") + 1))
  _first_line() { re=$regex awk -v from="$from" 'NR >= from && $0 ~ ENVIRON["re"] { print; exit }' "$E2E_WORK/$name.out"; }
  wait_until "$seconds" eval '[ -n "$(_first_line)" ]'
  line=$(_first_line)
  at=$(time_ms "$line")
  [ "$at" -ge "$start" ] && [ "$at" -le "$(now_ms)" ] ||
    fail "$name's line is timed outside the wait that read it: $(printf '%s' "$line" | cat -v)"
  echo $((at - start))
}

time_ms() {
  local time; time=$(sed -n 's/.*"time":"\([^"]*\)".*/\1/p' <<<"$1")
  [ -n "$time" ] || fail "no time in the line: $(printf '%s' "$1" | cat -v)"
  date -d "$time" +%s%3N
}

percentile() { sort -n | awk -v p="$1" '{ v[NR] = $1 } END { r = int((p * NR + 99) / 100); print v[r] }'; }
seconds() { awk '{ printf "%.3f", $1 / 1000 }'; }

# Polls a condition outside our control (a daemon, the kernel) with a
# deadline; the condition's output is discarded. A condition that knows
# what it saw leaves it in $E2E_WORK/said: a timeout's reason carries it,
# as CI's summary shows the reason alone.
wait_until() {
  local seconds=$1; shift
  local deadline=$((${EPOCHREALTIME/[.,]/} + seconds * 1000000))
  : >"$E2E_WORK/said"
  until "$@" >/dev/null; do
    [ "${EPOCHREALTIME/[.,]/}" -lt "$deadline" ] ||
      fail "not within ${seconds}s: $*$([ ! -s "$E2E_WORK/said" ] || printf '; it saw: %s' "$(_gist "$E2E_WORK/said")")"
    nap 0.1
  done
}

# The end of FILE on one line for a reason: lines joined by "|", the last
# 600 bytes, as cat -v shows them.
_gist() { tr '\n' '|' <"$1" | tail -c 600 | cat -v; }

# ---- teammates -------------------------------------------------------------
# Each teammate's configuration and state in folders of their own: a session
# log in $E2E_WORK/stateN/estimator (report_failure shows them).

as() { # as N COMMAND...
  local n=$1; shift
  XDG_CONFIG_HOME=$E2E_WORK/config$n XDG_STATE_HOME=$E2E_WORK/state$n estimator "$@"
}

join_as() { # join_as N OPTION...
  local n=$1; shift
  as "$n" join --adapter "hci$n" --channel 1 --name "${names[$n]}" "$@" >"$E2E_WORK/join$n.out" 2>&1 ||
    fail "join on hci$n: $(cat "$E2E_WORK/join$n.out")"
}

table_of() { # table_of N: teammate N's table, as a terminal shows it
  local cmd; cmd=$(printf '%q ' env XDG_CONFIG_HOME="$E2E_WORK/config$1" XDG_STATE_HOME="$E2E_WORK/state$1" \
    TERM=xterm NO_COLOR=1 estimator watch --once --adapter "hci$1")
  timeout 20 script -qec "$cmd" /dev/null </dev/null | tr -d '\r'
}

# ---- background processes -------------------------------------------------
# Each has NAME.out (stdout and stderr), NAME.in (a fifo on its stdin),
# NAME.pid and NAME.seen (how many output lines bg_expect has consumed) in
# $E2E_WORK. State lives in files so helpers work from $(...) subshells.

bg_start() {
  local name=$1; shift
  local base=$E2E_WORK/$name
  rm -f "$base.in" && mkfifo "$base.in"
  : >"$base.out"
  echo 0 >"$base.seen"
  # Read-write on the fifo: the program never sees end of input, and bg_send
  # never blocks while the program lives.
  "$@" <>"$base.in" >"$base.out" 2>&1 &
  echo $! >"$base.pid"
}

bg_pid() { cat "$E2E_WORK/$1.pid"; }

bg_alive() {
  local state
  state=$(awk '{ print $3 }' "/proc/$(bg_pid "$1")/stat" 2>/dev/null) || return 1
  [ "$state" != Z ]
}

bg_mark() { wc -l <"$E2E_WORK/$1.out" >"$E2E_WORK/$1.seen"; }

# Follows NAME's output from the first unconsumed line; prints and consumes
# up to the first line matching REGEX (bash ERE). Returns 1, having consumed
# everything, on timeout or when the program ends without such a line.
bg_await() {
  local name=$1 regex=$2 seconds=${3:-10}
  local base=$E2E_WORK/$name line fd follower
  local seen; seen=$(cat "$base.seen")
  exec {fd}< <(exec timeout "$seconds" tail -n "+$((seen + 1))" --pid="$(bg_pid "$name")" -f "$base.out")
  follower=$!
  while IFS= read -r -u "$fd" line; do
    seen=$((seen + 1))
    if [[ $line =~ $regex ]]; then
      echo "$seen" >"$base.seen"
      kill "$follower" 2>/dev/null
      exec {fd}<&-
      printf '%s\n' "$line"
      return 0
    fi
  done
  exec {fd}<&-
  echo "$seen" >"$base.seen"
  return 1
}

# bg_await, or the scenario fails with NAME's last lines in its reason.
bg_expect() {
  bg_await "$@" && return
  local printed; printed=$(_gist "$E2E_WORK/$1.out")
  if bg_alive "$1"; then
    fail "$1 printed no line matching /$2/ within ${3:-10}s; its last lines: $printed"
  fi
  fail "$1 ended without printing a line matching /$2/; its last lines: $printed"
}

# bg_expect for each REGEX, each looked for from the same unconsumed line:
# for events whose order two clocks do not fix. Consumes up to the latest.
bg_expect_all() {
  local name=$1 seconds=$2 regex from latest=0 at
  shift 2
  from=$(cat "$E2E_WORK/$name.seen")
  for regex; do
    echo "$from" >"$E2E_WORK/$name.seen"
    bg_expect "$name" "$regex" "$seconds" >/dev/null
    at=$(cat "$E2E_WORK/$name.seen"); [ "$at" -le "$latest" ] || latest=$at
  done
  echo "$latest" >"$E2E_WORK/$name.seen"
}

# Absence takes a period to show: watches NAME's new output for SECONDS.
bg_expect_none() {
  local name=$1 regex=$2 seconds=$3 line
  local seen; seen=$(cat "$E2E_WORK/$name.seen")
  line=$(timeout "$seconds" tail -n "+$((seen + 1))" -f "$E2E_WORK/$name.out" |
    grep -a -m1 -E -- "$regex") || true
  [ -z "$line" ] || fail "$name printed $(printf '%s' "$line" | cat -v), matching /$regex/"
}

bg_send() {
  bg_alive "$1" || fail "cannot send to $1: it has ended"
  timeout 5 bash -c 'printf "%s\n" "$1" >"$2"' _ "$2" "$E2E_WORK/$1.in" ||
    fail "cannot send to $1"
}

# Signals NAME (TERM unless told) and waits for it to end; returns its status.
bg_stop() {
  local pid; pid=$(bg_pid "$1")
  kill "-${2:-TERM}" "$pid" 2>/dev/null || true
  wait_until 10 eval "! bg_alive $1"
  local status=0
  wait "$pid" 2>/dev/null || status=$?
  return "$status"
}

# When the scenario fails, shows on standard error what its reason needs:
# each session's log (its last 40 lines, reception timings left out), the
# last LINES lines of each watch named and, when the scenario records the
# air (air_record), the air's last 15 s; when the scenario marked the
# moment it measures from (`measuring`), every line of each session's log,
# each watch's lines and the air from 1 s before that moment to 4 s after
# it, the time a late reveal's or a recovery's cause lies in; and what the
# scenario's own `failure_extra` prints, if it defines one.
report_failure() { # report_failure LINES WATCH...
  local lines=$1; shift
  trap "trap - EXIT; [ ! -s \"\$E2E_WORK/reason\" ] || {
    _failure_report $lines $*; ! declare -F failure_extra >/dev/null || failure_extra; } >&2" EXIT
}
_failure_report() {
  local lines=$1 f w moment from to air= logs=() watches=(); shift
  # Sessions joined plainly log in the guest's home, those of `as` apart.
  for f in "$XDG_STATE_HOME"/estimator/*.log "$E2E_WORK"/state*/estimator/*.log; do
    [ ! -e "$f" ] || logs+=("$f")
  done
  for w in "$@"; do [ ! -e "$E2E_WORK/$w.out" ] || watches+=("$w"); done  # one not started yet
  for f in "${logs[@]}"; do sed "s|^|${f##*/}: |" "$f" | grep -v "timing row" | tail -n 40; done
  for w in "${watches[@]}"; do echo "---- $w ----"; tail -n "$lines" "$E2E_WORK/$w.out"; done
  if [ -s "$E2E_WORK/air.snoop" ]; then
    # btmon reads the whole record back once for both windows: in the
    # emulated guest that takes tens of seconds after a long scenario.
    air=$E2E_WORK/air.txt
    air_text -t >"$air"
    echo "---- the air, the last 15 s ----"; air_read timeline 15 <"$air"
  fi
  moment=$(cat "$E2E_WORK/measuring" 2>/dev/null) || return 0
  from=$(_utc_ms $((moment - 1000))) to=$(_utc_ms $((moment + 4000)))
  echo "---- from 1 s before the moment measured to 4 s after: ${from:11} to ${to:11} ----"
  [ -z "$air" ] || air_read timeline 5 "${to:11}" <"$air"
  for f in "${logs[@]}"; do _lines_between "$from" "$to" "$f" "${f##*/}"; done
  for w in "${watches[@]}"; do _lines_between "$from" "$to" "$E2E_WORK/$w.out" "$w"; done
}
# The lines of FILE timed from FROM to TO (as _utc_ms writes them), each
# after "NAME: ": a session log's lines begin with their time, a watch's
# JSON lines carry it as "time".
_lines_between() { # _lines_between FROM TO FILE NAME
  awk -v a="$1" -v b="$2" '{ t = match($0, /"time":"[^"]*"/) ? substr($0, RSTART + 8, 23) : substr($1, 1, 23) }
    t >= a && t <= b' "$3" | sed "s|^|$4: |"
}
# Marks MS (a now_ms) as the moment the scenario measures from, for the
# failure's report.
measuring() { echo "$1" >"$E2E_WORK/measuring"; }
# MS (milliseconds since the epoch) as the logs write their time, without the Z.
_utc_ms() { date -u -d "@$(($1 / 1000)).$(printf '%03d' $(($1 % 1000)))" +%Y-%m-%dT%T.%3N; }

# ---- the stack: radios, bluetoothd -----------------------------------------
# Radios only hear each other when one process emulates them all (btvirt and
# Tests/Air each keep their air inside the process). So the scenario's radios
# come from one `btvirt -lN`, or on E2E_CONTROLLER=bumble one `python -m
# estimator_air vhci...`; radio_add makes an extra btvirt radio in a process
# of its own, which hears nobody but can be unplugged alone.

# The controllers' advertising, from the scenario's header "# advertising:
# KIND" (stack_up), on either model: legacy (the default) is `btvirt -L`,
# LE-only controllers with legacy advertising, or Tests/Air's `--legacy`;
# extended is plain `btvirt`, dual-mode controllers with extended
# advertising, or Tests/Air's default.
#
# Who hears whom, from the header "# air-links: I-J=RSSI|I-J=none ..."
# (stack_up; space-separated, I and J radio indexes, hciI and hciJ): on the
# Bumble model only, each entry one `--link` of Tests/Air, so radios I and
# J hear each other at RSSI dBm, or not at all; every pair not named hears
# each other at -50 dBm, as every pair does on btvirt, whose air has no
# distance. A scenario with air-links also says `# not-on-btvirt:`.
#
# Where the laptops stand, on the Bumble model only, the same way (stack_up):
# "# air-places: I=X,Y ..." (radio I at X,Y metres; one --place each),
# "# air-walls: X1,Y1,X2,Y2=DB ..." (one --wall each) and "# air-noise:
# SIGMA" (--noise): a pair of placed radios hears each other by Tests/Air's
# path-loss model, with noise drawn per report; an air-links entry names a
# pair over it. The noise's seed is E2E_AIR_SEED, or a fresh one each run;
# it is written in the scenario's output and the air's log, so a failing
# run's seed is known.
btvirt_kind() {
  case ${E2E_ADVERTISING:-legacy} in
    legacy) echo -L ;;
    extended) ;;
    *) fail "unknown advertising '$E2E_ADVERTISING' (legacy or extended)" ;;
  esac
}

radios_up() {
  [ "$1" -gt 0 ] || return 0
  if [ "${E2E_CONTROLLER:-btvirt}" = bumble ]; then
    bumble_radios_up "$1"
  else
    [ -z "${E2E_AIR_LINKS:-}" ] ||
      fail "air-links need the Bumble model: on btvirt every radio hears every other (# not-on-btvirt: keeps the scenario off it)"
    [ -z "${E2E_AIR_PLACES:-}${E2E_AIR_WALLS:-}${E2E_AIR_NOISE:-}" ] ||
      fail "air-places, air-walls and air-noise need the Bumble model: btvirt's air has no distance (# not-on-btvirt: keeps the scenario off it)"
    btvirt $(btvirt_kind) "-l$1" >>"$E2E_WORK/btvirt.log" 2>&1 &
    echo $! >"$E2E_WORK/radios.pid"
  fi
  wait_until 10 test -e "/sys/class/bluetooth/hci$(($1 - 1))"
}

# N corrected Bumble controllers (Tests/Air) on one air, each on a /dev/vhci
# of its own, from the venv at the top of the host's tree (make air-venv),
# hearing each other as E2E_AIR_LINKS, E2E_AIR_PLACES, E2E_AIR_WALLS and
# E2E_AIR_NOISE say (one option each entry; `--opt=ENTRY`, since a wall's
# X1 may be negative). No bytecode: the tree is read-only here. Awaits the
# model's "ready" line, or fails with its last word if it ends first (an
# entry it refuses).
bumble_radios_up() {
  local top=$E2E_ROOT/../.. transports=() air=() entries=() entry i pid seed
  for i in $(seq "$1"); do transports+=(vhci); done
  [ "${E2E_ADVERTISING:-legacy}" = extended ] || transports=(--legacy "${transports[@]}")
  read -ra entries <<<"${E2E_AIR_LINKS:-}"
  for entry in "${entries[@]}"; do air+=("--link=$entry"); done
  read -ra entries <<<"${E2E_AIR_PLACES:-}"
  for entry in "${entries[@]}"; do air+=("--place=$entry"); done
  read -ra entries <<<"${E2E_AIR_WALLS:-}"
  for entry in "${entries[@]}"; do air+=("--wall=$entry"); done
  if [ -n "${E2E_AIR_NOISE:-}" ]; then
    seed=${E2E_AIR_SEED:-$(((RANDOM << 15) | RANDOM))}
    air+=("--noise=$E2E_AIR_NOISE" "--seed=$seed")
    echo "the air's noise: $E2E_AIR_NOISE dB, seed $seed (E2E_AIR_SEED=$seed draws the same readings per pair)" |
      tee -a "$E2E_WORK/air.log"
  fi
  [ -x "$top/.venv-air/bin/python" ] || fail "no $top/.venv-air: make air-venv on the host"
  : >"$E2E_WORK/air.out"
  PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$top/Tests/Air \
    "$top/.venv-air/bin/python" -m estimator_air "${air[@]}" "${transports[@]}" \
    >"$E2E_WORK/air.out" 2>>"$E2E_WORK/air.log" &
  pid=$!
  echo "$pid" >"$E2E_WORK/radios.pid"
  wait_until 60 eval "grep -q '^ready ' \"\$E2E_WORK/air.out\" || ! kill -0 $pid 2>/dev/null"
  grep -q '^ready ' "$E2E_WORK/air.out" ||
    fail "the Bumble model ended before its controllers were up: $(tail -1 "$E2E_WORK/air.log")"
}

# Prints the index of the new radio; its btvirt's pid is in radios/hciN.pid.
radio_add() {
  mkdir -p "$E2E_WORK/radios"
  local before index
  before=$(ls /sys/class/bluetooth 2>/dev/null || true)
  btvirt $(btvirt_kind) -l1 >>"$E2E_WORK/btvirt.log" 2>&1 &
  local pid=$!
  wait_until 10 new_controller "$before"
  index=$(new_controller "$before")
  echo "$pid" >"$E2E_WORK/radios/$index.pid"
  if bus_has_name org.bluez; then adapter_ready "${index#hci}"; fi
  echo "${index#hci}"
}

new_controller() { # prints the hciN not listed in $1, if there is one
  local c
  for c in $(ls /sys/class/bluetooth 2>/dev/null); do
    case " $(echo $1) " in *" $c "*) ;; *) echo "$c"; return 0 ;; esac
  done
  return 1
}

# Unplugs a radio made by radio_add.
radio_remove() {
  local pidfile=$E2E_WORK/radios/hci$1.pid
  [ -f "$pidfile" ] || fail "hci$1 was not made by radio_add: only those can be removed alone"
  kill "$(cat "$pidfile")"
  rm -f "$pidfile"
  wait_until 10 test ! -e "/sys/class/bluetooth/hci$1"
}

bluetoothd_start() {
  echo "---- bluetoothd started $(date +%T.%3N)" >>"$E2E_WORK/bluetoothd.log"
  "$BLUETOOTHD" -n "$BLUETOOTHD_DEBUG" --experimental >>"$E2E_WORK/bluetoothd.log" 2>&1 &
  echo $! >"$E2E_WORK/bluetoothd.pid"
  wait_until 15 bus_has_name org.bluez
  local c
  for c in $(ls /sys/class/bluetooth); do adapter_ready "${c#hci}"; done
}

bluetoothd_stop() {
  local pid; pid=$(cat "$E2E_WORK/bluetoothd.pid")
  kill "$pid" 2>/dev/null || true
  wait_until 10 eval "! bus_has_name org.bluez"
  wait "$pid" 2>/dev/null || true
}

bluetoothd_restart() {
  bluetoothd_stop
  bluetoothd_start
}

bus_has_name() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus / \
    org.freedesktop.DBus.NameHasOwner "string:$1" 2>/dev/null | grep -q 'boolean true'
}

# BlueZ has set the adapter up: powered (AutoEnable) and its advertising
# manager registered. Only then may a scenario advertise: bluetoothd removes
# every advertising instance it finds when it sets up the manager.
adapter_ready() {
  wait_until 15 adapter_powered "$1"
  wait_until 15 bluez_property "/org/bluez/hci$1" LEAdvertisingManager1 SupportedInstances
}

adapter_powered() {
  dbus-send --system --print-reply --dest=org.bluez "/org/bluez/hci$1" \
    org.freedesktop.DBus.Properties.Get string:org.bluez.Adapter1 string:Powered \
    2>/dev/null | grep -q 'boolean true'
}

adapter_power() {
  mgmt --index "$1" power "$2" >/dev/null || fail "btmgmt could not power hci$1 $2"
  if [ "$2" = on ]; then adapter_ready "$1"; else wait_until 10 eval "! adapter_powered $1"; fi
}

# When it does not, what the status said and the session's last radio
# lines are left for wait_until's reason.
radio_says() {
  estimator status --adapter "$1" >"$E2E_WORK/said" 2>&1 || true
  grep -q "radio: $2" "$E2E_WORK/said" && return
  grep -a ' radio: ' "$XDG_STATE_HOME/estimator/$1.log" 2>/dev/null | tail -n 3 >>"$E2E_WORK/said" || true
  return 1
}

# Called by guest.sh before each scenario with its number of radios, in the
# shell that then sources the scenario ($0: its path, for its headers
# "# advertising:", "# air-links:", "# air-places:", "# air-walls:" and
# "# air-noise:").
stack_up() {
  E2E_ADVERTISING=$(sed -n 's/^# advertising: *\([a-z]*\).*/\1/p' "$0" | head -1)
  export E2E_ADVERTISING=${E2E_ADVERTISING:-legacy}
  E2E_AIR_LINKS=$(sed -n 's/^# air-links: *//p' "$0" | head -1)
  E2E_AIR_PLACES=$(sed -n 's/^# air-places: *//p' "$0" | head -1)
  E2E_AIR_WALLS=$(sed -n 's/^# air-walls: *//p' "$0" | head -1)
  E2E_AIR_NOISE=$(sed -n 's/^# air-noise: *//p' "$0" | head -1)
  export E2E_AIR_LINKS E2E_AIR_PLACES E2E_AIR_WALLS E2E_AIR_NOISE
  radios_up "$1"
  bluetoothd_start
}

# ---- the kernel's management interface (no D-Bus) -------------------------

# btmgmt prints nothing unless its output is a terminal: give it one.
mgmt() {
  local cmd; cmd=$(printf '%q ' btmgmt "$@")
  timeout 20 script -qec "$cmd" /dev/null </dev/null | tr -d '\r'
}

# Hex of the bytes of $1 (as given: escapes and invalid UTF-8 pass through).
hex_of() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }

# An AD structure "complete local name" (type 09) carrying the bytes of $1.
ad_local_name() {
  local hex; hex=$(hex_of "$1")
  printf '%02x09%s' $((${#hex} / 2 + 1)) "$hex"
}

# Advertises the service UUID, with SCANRSP_HEX as the whole scan response
# (AD structures, not checked: hostile data on purpose), as instance 1. The
# flags say "general discoverable" (-g): BlueZ's discovery ignores devices
# that are not discoverable, as it ignores BlueZ's own "broadcast" adverts.
advertise_raw() {
  local out; out=$(mgmt --index "$1" add-adv -g -u "$E2E_UUID" -s "$2" 1)
  [[ $out == *"Instance added: 1"* ]] || fail "btmgmt could not advertise on hci$1: $out"
}

advertise() { advertise_raw "$1" "$(ad_local_name "$2")"; }

# An iPhone running the Estimator app, as it advertises in the foreground
# (docs/PROTOCOL.md, The Estimator app): Tests/Air's model
# (estimator_air.iphone) takes hciN from the kernel through an HCI user
# channel (the radio is powered off first; BlueZ loses it) and advertises
# connectable, LE General Discoverable, the service UUID and PACKET cut to
# an 8-byte shortened name in its advertising data, from a random address
# whose top bits are those of a resolvable one, changed on demand. btvirt
# reports an advertiser only when it starts (docs/RIG.md), so there the
# model starts its advertisement again every second, as a phone's
# controller repeats it. Needs the venv at the top of the host's tree.
# Start it before the sessions where the scenario allows: a Python process
# of its own, it took longer than its 15 s to say "ready" in a guest busy
# with four sessions and four watches (docs/MEASUREMENTS.md, The guest's CPU).
iphone_advertise() {
  local top=$E2E_ROOT/../.. fifo=$E2E_WORK/iphone$1.in out=$E2E_WORK/iphone$1.out fd repeat=()
  [ -x "$top/.venv-air/bin/python" ] || fail "no $top/.venv-air: make air-venv on the host"
  [ "${E2E_CONTROLLER:-btvirt}" = bumble ] || repeat=(--repeat 1)
  adapter_power "$1" off
  rm -f "$fifo" && mkfifo "$fifo" && : >"$out"
  PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$top/Tests/Air "$top/.venv-air/bin/python" -m estimator_air.iphone \
    "${repeat[@]}" "$1" "$(hex_of "$2")" <"$fifo" >"$out" 2>>"$E2E_WORK/iphone$1.log" &
  exec {fd}>"$fifo"
  IPHONE_FD[$1]=$fd
  wait_until 15 grep -q '^ready ' "$out"
}

# What the iPhone on hciN answers COMMAND (see estimator_air.iphone).
iphone_ask() {
  local out=$E2E_WORK/iphone$1.out lines
  lines=$(wc -l <"$out")
  echo "$2" >&"${IPHONE_FD[$1]}"
  wait_until 10 eval "[ \$(wc -l <'$out') -gt $lines ]"
  tail -n 1 "$out"
}

iphone_new_address() { iphone_ask "$1" address | sed 's/^address //'; }

iphone_send() {
  local answer; answer=$(iphone_ask "$1" "send $(hex_of "$2")")
  [[ $answer == "sent "* ]] || fail "the iPhone on hci$1 did not send $2: $answer"
}

# The address the iPhone on hciN advertises from.
iphone_address() { sed -n 's/^\(ready\|address\) //p' "$E2E_WORK/iphone$1.out" | tail -n 1; }

# The addresses of hciN's Device1 objects whose Name is NAME, one a line:
# one per address an advertiser was heard from.
bluez_devices_named() {
  dbus-send --system --print-reply --dest=org.bluez / org.freedesktop.DBus.ObjectManager.GetManagedObjects |
    awk -v dev="/org/bluez/hci$1/dev_" -v name="\"$2\"" '
      /object path "/ { path = $3; gsub(/"/, "", path) }
      /string "Name"/ {
        getline
        if (index(path, dev) == 1 && index($0, name)) { a = substr(path, length(dev) + 1); gsub(/_/, ":", a); print a }
      }' | sort -u
}

advertising_clear() { mgmt --index "$1" clr-adv >/dev/null; }

# ---- discovery through BlueZ's D-Bus API ----------------------------------

# BlueZ ends a discovery when the client that started it leaves the bus, so
# a long-lived client (bluetoothctl, as background process "scanner") keeps
# it on; its output reports every device and name change.
scan_start() {
  echo "$1" >"$E2E_WORK/scanner.hci"
  bg_start scanner bluetoothctl
  bg_send scanner "select $(adapter_address "$1")"
  bg_send scanner "scan on"
  bg_expect scanner 'Discovery started' 15 >/dev/null
}

scan_stop() { bg_stop scanner; }

# The scanner's line reporting a device named REGEX (as bluetoothctl prints
# names: raw bytes), or status 1 after SECS (15).
scan_await_name() { bg_await scanner "Device ([0-9A-F:]{17}) (Name: )?$1" "${2:-15}"; }

# Waits for the scanner to report a device named REGEX; prints the device's
# object path.
scan_expect_name() {
  local line
  line=$(bg_expect scanner "Device ([0-9A-F:]{17}) (Name: )?$1" "${2:-15}")
  [[ $line =~ Device\ ([0-9A-F:]{17}) ]]
  echo "/org/bluez/hci$(cat "$E2E_WORK/scanner.hci")/dev_${BASH_REMATCH[1]//:/_}"
}

adapter_address() {
  bluez_property "/org/bluez/hci$1" Adapter1 Address | sed -n 's/.*string "\(.*\)".*/\1/p'
}

# dbus-send's reply to Properties.Get of PROPERTY of org.bluez.INTERFACE on
# object PATH.
bluez_property() {
  dbus-send --system --print-reply --dest=org.bluez "$1" \
    org.freedesktop.DBus.Properties.Get "string:org.bluez.$2" "string:$3"
}

discovering() { bluez_property "/org/bluez/hci$1" Adapter1 Discovering | grep -q 'boolean true'; }
active_instances() {
  bluez_property "/org/bluez/hci$1" LEAdvertisingManager1 ActiveInstances | awk '/byte/ { print $NF }'
}

# Hex of the bytes of the Name of device object $1: dbus-send prints the
# string raw between quotes, od shows every byte.
name_hex() {
  bluez_property "$1" Device1 Name | sed -n 's/^ *variant *string "\(.*\)"$/\1/p' |
    head -c -1 | od -An -v -tx1 | tr -d ' \n'
}

# ---- what happened on the air (btmon) ---------------------------------------

# For a failure's output: a timing miss is only explained by the order of
# scans, advertising starts and reports across the radios (a report the
# controller heard but the kernel did not pass on was dropped).
air_record() {
  btmon -w "$E2E_WORK/air.snoop" >/dev/null 2>&1 &
  wait_until 5 test -s "$E2E_WORK/air.snoop"
}

# The record as btmon reads it back (-t: times of day, in UTC, as FROM and
# UNTIL are given), and Tests/Air's reader of it (estimator_air.air_record:
# each summary below is one of its commands, documented there). The host's
# python3 from the standard library, without the venv; no bytecode: the
# tree is read-only here.
air_text() { TZ=UTC btmon "$@" -r "$E2E_WORK/air.snoop" 2>/dev/null; }
air_read() {
  PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$E2E_ROOT/../Air python3 -m estimator_air.air_record "$@"
}

# One line per event, for every radio: mgmt commands and discovery state,
# scan and advertising switched on or off, new random addresses, reports
# heard (name, address) and refused HCI commands, in the SECONDS before
# UNTIL or the recording's end; as cat -v shows them.
air_timeline() { air_text -t | air_read timeline "$1" "${2:-}"; }

# What hciN last put on the air, as the kernel told the controller: the PDU
# type and interval of its advertising parameters, its advertising data and
# its scan response (btmon's decoding, one line each, fields separated by
# "; ").
air_advertisement() { air_text | air_read advertisement "$1"; }

# One line per radio and advertiser it heard between FROM and UNTIL
# (HH:MM:SS[.frac], UTC): "hciN NAME LONGEST OVER3 REPORTS", where LONGEST is
# the longest time in seconds the kernel passed on no report of NAME, OVER3
# how many such silences lasted over 3 s (two announcements missed in a
# row), and REPORTS how many it passed on. A peer turns stale after 6 s
# unheard, so LONGEST is the margin a steady peer kept.
air_unheard() { air_text -t | air_read unheard "$1" "$2"; }

# One line per pair of radios between FROM and UNTIL: "hciL hciA BURSTS
# MISSED AFTER_MISS": hciA's announcements, those hciL could not hear, and
# those missed right after a miss (a coupling of the two radios' restarts).
air_misses() { air_text -t | air_read misses "$1" "$2"; }

# For each moment on standard input (milliseconds since the epoch, in
# order), one word a line: whether hciL could hear hciS's first advertising
# start at or after it ("heard"), or was deaf then ("deaf": its scan off,
# or on before the kernel's "Discovering"), or hciS started none ("none").
air_first_start_heard() {
  local moments; moments=$(cat)
  air_text -t | air_read first-start-heard "$1" "$2" "$moments"
}

# One line per radio: "hciN deaf PERCENT starts PER_MINUTE addresses
# PER_MINUTE scans PER_MINUTE" between FROM and UNTIL (HH:MM:SS[.frac],
# UTC): the share of time it could not hear, its advertising starts, the
# new random addresses it asked for and its scan starts.
air_radio_stats() { air_text -t | air_read radio-stats "$1" "$2"; }

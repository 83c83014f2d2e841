#!/bin/bash
# Guest side of the rig, started by the initrd's /init in the chroot of the
# host's / with the plan the host wrote (rig.sh): starts the system bus, then
# runs each scenario with a fresh stack (radios of the run's controller model
# + bluetoothd) in a cgroup of its own, so everything it started, detached sessions included, is killed
# before the next one. Prints for the host:
#   E2E-START <scenario> ...
#   E2E-METRIC <scenario> <name> <value> [unit]
#   E2E-RESULT <scenario> PASS|FAIL <seconds>s [reason]
# and, after a failure, the scenario's output and the tail of bluetoothd's log.
set -uo pipefail
# shellcheck source=/dev/null
. "$1"
export E2E_ROOT E2E_MODE E2E_STEADY E2E_CONTROLLER E2E_AIR_SEED
export PATH=${E2E_BIN:+$E2E_BIN:}/usr/sbin:/usr/bin:/sbin:/bin
export LANG=C.UTF-8 TERM=${E2E_TERM:-linux}
# shellcheck source=lib.sh
. "$E2E_ROOT/lib.sh"

mkdir -p /run/dbus
dbus-daemon --system --fork || { echo "E2E-LOG guest: the system bus did not start"; exit 1; }

# A scenario's header line "# KEY: NUMBER", or the default.
header() {
  local v; v=$(sed -n "s/^# $2: *\([0-9][0-9]*\).*/\1/p" "$1" | head -1)
  echo "${v:-$3}"
}

# Runs one scenario file: $1 its path, $2 a name to report it under, $3
# "live" to leave its output on the console (a terminal, for the demo's
# table) instead of keeping it for the report.
run_scenario() {
  local path=$1 name=$2 live=${3:-} radios limit cg rc started reason
  radios=$(header "$path" radios 2)
  # A steady phase longer than its usual minute (E2E_STEADY) needs the time.
  limit=$(($(header "$path" timeout 120) + (${E2E_STEADY:-60} > 60 ? ${E2E_STEADY:-60} - 60 : 0)))
  export E2E_SCENARIO=$name E2E_WORK=/tmp/e2e/$name
  rm -rf "$E2E_WORK" && mkdir -p "$E2E_WORK"
  # Everything a program may write goes to tmpfs; the host's / is read-only.
  export HOME=$E2E_WORK/home XDG_RUNTIME_DIR=$E2E_WORK/runtime
  export XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state
  mkdir -p "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" && mkdir -m 0700 "$XDG_RUNTIME_DIR"

  echo "E2E-START $name (radios: $radios on $E2E_CONTROLLER, limit: ${limit}s)"
  cg=/sys/fs/cgroup/e2e-${name//@/-}
  mkdir "$cg"
  started=$(now_ms)
  if [ "$live" = live ]; then
    in_cgroup "$cg" "$limit" "$path" "$radios" 2>&1 </dev/null
  else
    in_cgroup "$cg" "$limit" "$path" "$radios" >"$E2E_WORK/output.log" 2>&1 </dev/null
  fi
  rc=$?
  end_cgroup "$cg"
  [ "$live" = live ] || grep -a '^E2E-METRIC ' "$E2E_WORK/output.log"
  local seconds; seconds=$(awk -v ms=$(($(now_ms) - started)) 'BEGIN { printf "%.1f", ms / 1000 }')
  if [ $rc -eq 0 ]; then
    echo "E2E-RESULT $name PASS ${seconds}s"
    return
  fi
  # A failure's own reason stands when its report (lib.sh's
  # report_failure: the air record read back, a minute and more in the
  # emulated guest after a long scenario) then runs out the time.
  reason=$(cat "$E2E_WORK/reason" 2>/dev/null)
  case $rc in
    124 | 137) reason=${reason:+$reason; its report then }"timed out after ${limit}s" ;;
    *) reason=${reason:-exit status $rc} ;;
  esac
  if [ "$live" != live ]; then
    # cat -v: hostile names in a scenario's output must not reach a terminal raw.
    echo "---- output of $name ----"
    cat -v "$E2E_WORK/output.log" | sed 's/^/| /'
  fi
  # The demo's own sentence says it all; elsewhere bluetoothd may know more.
  if [ "$live" != live ] || [ ! -s "$E2E_WORK/reason" ]; then
    echo "---- last 40 lines of bluetoothd's log ----"
    tail -n 40 "$E2E_WORK/bluetoothd.log" 2>/dev/null | cat -v | sed 's/^/| /'
    echo "----"
  fi
  echo "E2E-RESULT $name FAIL ${seconds}s $(printf '%s' "$reason" | cat -v)"
}

# Runs a scenario ($3, with $4 radios) within $2 seconds in cgroup $1: a
# fresh stack first, then the scenario itself, in bash with -e. A subshell,
# so that only the scenario moves into the cgroup.
in_cgroup() (
  echo "$BASHPID" >"$1/cgroup.procs"
  timeout -k 5 "$2" bash -c '
    set -eE -o pipefail
    shopt -s inherit_errexit
    trap '\''fail "${BASH_SOURCE[0]##*/} line $LINENO: $BASH_COMMAND"'\'' ERR
    . "$E2E_ROOT/lib.sh"
    stack_up "$1"
    . "$0"' "$3" "$4"
)

# Kills everything a scenario left running, daemons and detached sessions too.
end_cgroup() {
  echo 1 >"$1/cgroup.kill"
  local i
  for i in $(seq 50); do
    grep -q 'populated 0' "$1/cgroup.events" && break
    sleep 0.1
  done
  rmdir "$1" || echo "E2E-LOG guest: processes of $1 survived cgroup.kill"
}

case $E2E_MODE in
  suite)
    for _ in $(seq "${E2E_REPEAT:-1}"); do
      for run in "${E2E_RUNS[@]}"; do
        E2E_CONTROLLER=${run%% *} s=${run#* }
        name=$(basename "$s" .sh)
        # The name rig.sh reports the run under (run_name there).
        [ "$E2E_CONTROLLER" = btvirt ] || name=$name@$E2E_CONTROLLER
        run_scenario "$s" "$name"
      done
    done ;;
  demo)
    # The console has no size of its own: give it the host terminal's.
    stty rows "${E2E_TTY_SIZE% *}" cols "${E2E_TTY_SIZE#* }" 2>/dev/null
    run_scenario "${E2E_RUNS[0]#* }" demo live ;;
esac
echo "E2E-DONE"

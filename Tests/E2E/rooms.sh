#!/usr/bin/env bash
# Host side of the rooms rig: a laptop per guest. Each role in rooms/ (a
# scenario: room-watcher.sh, room-alice.sh, room-bob.sh) boots its own QEMU
# guest from the rig's kernel and initrd (rig.sh prepare), with its own
# kernel, system bus, bluetoothd and one estimator session. The controllers
# share one air: one process on the host runs the project's corrected Bumble
# controller (Tests/Air, docs/RIG.md) per guest, and each guest's /dev/vhci
# is bridged to its controller over a virtio serial port
# (rooms/vhci-bridge.py in the guest, a unix socket here). The guests' clocks are their own: a role measures only
# on its own clock, and this script pairs what two roles measured (the
# ping-pong, docs/ROOMS.md).
#
#   rooms.sh      boots the room, waits for every guest, prints the summary;
#                 exits 1 unless every role printed PASS
#
# Environment: E2E_CACHE, E2E_BIN and E2E_STEADY as for rig.sh; E2E_AIR_FLAGS
# for the air (--legacy: controllers without extended advertising). The air
# runs from the venv .venv-air/ at the top of the tree (make air-venv).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${E2E_CACHE:-$top/.vm}
run=$cache/rooms
roles=(room-watcher room-alice room-bob)
steady=${E2E_STEADY:-60}

log() { printf 'rooms: %s\n' "$*" >&2; }

[ -x "$top/.venv-air/bin/python" ] || { log "no $top/.venv-air: make air-venv"; exit 69; }
case "$steady" in '' | *[!0-9]*) log "E2E_STEADY takes a whole number"; exit 64 ;; esac

# Seconds since $1 (an EPOCHREALTIME), one decimal.
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# Boots the guest of role $1 on its plan and keeps its console in
# $run/ROLE.console.log, showing its E2E lines as they come. When the guest
# started its scenario (kernel, initrd, 9p, system bus: its boot) goes to
# $run/ROLE.boot, in seconds after QEMU started.
boot_guest() {
  local role=$1 limit=$2 started=$EPOCHREALTIME line
  timeout -k 10 "$limit" qemu-system-x86_64 -accel tcg -m 512 -smp 1 \
    -nodefaults -no-user-config -display none -serial stdio -no-reboot \
    -kernel "$cache/vmlinuz" -initrd "$cache/initrd.gz" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1 e2e.main=$here/guest.sh e2e.plan=$run/$role.plan.sh" \
    -virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
    -device virtio-serial-pci -chardev "socket,id=air,path=$run/$role.sock" \
    -device virtserialport,chardev=air,name=air \
    </dev/null | while IFS= read -r line; do
      line=${line%$'\r'}
      printf '%s\n' "$line" >>"$run/$role.console.log"
      case $line in
        E2E-START*) since "$started" >"$run/$role.boot"; printf '[%s] %s\n' "$role" "$line" ;;
        E2E-RESULT* | E2E-LOG*) printf '[%s] %s\n' "$role" "$line" ;;
      esac
    done
  return "${PIPESTATUS[0]}"
}

# A run of the role's scenario on the Bumble model, which guest.sh reports
# as ROLE@bumble; the guest makes no radios of its own (# radios: 0).
write_plan() { # $1: the role
  {
    printf 'E2E_MODE=suite\nE2E_ROOT=%q\nE2E_BIN=%q\n' "$here" "${E2E_BIN:-}"
    printf 'E2E_REPEAT=1\nE2E_STEADY=%q\n' "$steady"
    printf 'E2E_RUNS=(%q)\n' "bumble $here/rooms/$1.sh"
  } >"$run/$1.plan.sh"
}

# Starts the air with a unix socket per role, which each guest's QEMU
# connects to, and waits for its line saying every controller is up
# ("ready N ADDRESS...").
air_up() {
  local transports=() role
  for role in "${roles[@]}"; do transports+=("unix-server:$run/$role.sock"); done
  : >"$run/air.log"
  # No bytecode in the tree, as in the guest (lib.sh, bumble_radios_up).
  # shellcheck disable=SC2086 # E2E_AIR_FLAGS holds zero or more flags
  PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$top/Tests/Air "$top/.venv-air/bin/python" -m estimator_air \
    ${E2E_AIR_FLAGS:-} "${transports[@]}" >"$run/air.log" 2>&1 &
  air=$!
  grep -q -m1 '^ready ' < <(timeout 60 tail -n +1 --pid="$air" -f "$run/air.log") ||
    { log "the air did not come up:"; cat "$run/air.log" >&2; exit 69; }
}

air_down() {
  [ -n "${air:-}" ] || return 0
  kill "$air" 2>/dev/null || true
  wait "$air" 2>/dev/null || true
}

main() {
  "$here/rig.sh" prepare
  rm -rf "$run" && mkdir -p "$run"
  local role limit=0 started=$SECONDS pids=() status=0 i ended
  for role in "${roles[@]}"; do
    write_plan "$role"
    local t; t=$(sed -n 's/^# timeout: *\([0-9][0-9]*\).*/\1/p' "$here/rooms/$role.sh" | head -1)
    t=$((${t:-300} + steady + 120))  # the steady phase, and booting three guests on shared cores
    [ "$t" -gt "$limit" ] && limit=$t
  done
  trap air_down EXIT
  air_up
  log "air up ($(grep -m1 "^ready " "$run/air.log")); booting ${#roles[@]} guests"
  for role in "${roles[@]}"; do
    boot_guest "$role" "$limit" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    ended=0
    wait "${pids[$i]}" || ended=$?
    [ $ended -ne 124 ] || log "${roles[$i]}'s guest did not finish within ${limit}s"
  done
  air_down
  report "$((SECONDS - started))" || status=$?
  return $status
}

# A role's metric from its console: "E2E-METRIC ROLE@bumble NAME VALUE [UNIT]".
metric_of() {
  sed -n "s/^E2E-METRIC $1@bumble $2 \([^ ]*\).*/\1/p" "$run/$1.console.log" | tail -1
}

# Two roles' per-round samples (comma-separated, the same rounds in the same
# order), the first minus the second, as "p50 p95 max" in ms.
paired_difference() {
  local a b; a=$(metric_of "$1" "$2") b=$(metric_of "$3" "$4")
  [ -n "$a" ] && [ -n "$b" ] || return 0
  awk -v a="$a" -v b="$b" 'BEGIN {
    n = split(a, xs, ","); if (split(b, ys, ",") != n) exit
    for (i = 1; i <= n; i++) d[i] = xs[i] - ys[i]
    for (i = 2; i <= n; i++) for (j = i; j > 1 && d[j - 1] > d[j]; j--) { t = d[j]; d[j] = d[j - 1]; d[j - 1] = t }
    printf "%d %d %d\n", d[int((n + 1) / 2)], d[int((95 * n + 99) / 100)], d[n]
  }'
}

# Every role must have said PASS; a missing result (a hang, a crash of its
# guest) is a failure too. Then the figures: each role's own, and those
# that take two roles' clocks.
report() {
  local elapsed=$1 role name line failed=0 boot
  echo
  echo "== e2e-rooms summary (${elapsed}s from the air's start to the last guest's end; consoles in $run)"
  for role in "${roles[@]}"; do
    name=$role@bumble
    line=$(grep -E "^E2E-RESULT $name " "$run/$role.console.log" 2>/dev/null | tail -1 || true)
    boot=$(cat "$run/$role.boot" 2>/dev/null || echo "?")
    case $line in
      "E2E-RESULT $name PASS"*) echo "  PASS  ${line#E2E-RESULT $name PASS }  $name (booted in ${boot}s)" ;;
      "") echo "  FAIL  no result (guest hung or crashed)  $name"; failed=1 ;;
      *) echo "  FAIL  ${line#E2E-RESULT $name FAIL }  $name (booted in ${boot}s)"; failed=1 ;;
    esac
  done
  for role in "${roles[@]}"; do
    grep '^E2E-METRIC ' "$run/$role.console.log" 2>/dev/null | grep -v '_samples ' |
      sed 's/^E2E-METRIC /  metric  /' || true
  done
  local two leave kill
  # The watcher's pick -> Alice's answer seen, less Alice's own turnaround
  # (her watch saw the ping -> her pick started): two one-way trips.
  two=$(paired_difference room-watcher ping_rtt_samples room-alice ping_turnaround_samples)
  [ -z "$two" ] || { set -- $two; echo "  derived  ping-pong, two one-way pick -> visible trips: p50 $1 ms, p95 $2 ms, max $3 ms"; }
  leave=$(paired_difference room-watcher leave_signal_to_gone_ms room-bob leave_turnaround_ms)
  [ -z "$leave" ] || echo "  derived  signal pick -> seen by Bob + Bob's leave -> gone on the watcher: ${leave%% *} ms"
  kill=$(paired_difference room-watcher kill_signal_to_stale_ms room-bob kill_turnaround_ms)
  [ -z "$kill" ] || echo "  derived  signal pick -> seen by Bob + Bob's kill -9 -> stale on the watcher: ${kill%% *} ms"
  return $failed
}

main

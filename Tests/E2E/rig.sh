#!/usr/bin/env bash
# Host side of the real-stack rig: a QEMU guest (TCG) boots the Debian kernel,
# loads the vhci driver and runs emulated LE radios (BlueZ's btvirt, or the
# project's corrected Bumble controllers: docs/RIG.md), the real system bus
# and the real bluetoothd. The guest chroots into the host's / shared
# read-only over 9p, so whatever the host has built runs unchanged inside.
# The host's side is read-only to the guest: results come back on the serial
# console, which this script streams and then parses.
#
#   rig.sh prepare               kernel and initrd into the cache (skipped when current)
#   rig.sh suite [SCENARIO...]   one boot, every scenario (default: scenarios/*.sh) on
#                                every controller model; exits 1 unless every run of
#                                every scenario printed PASS. Every metric of every run,
#                                with its bound, in .build/e2e/metrics.tsv
#   rig.sh demo                  boots with 4 radios and runs demo.sh, console live
#
# Environment: E2E_CACHE (default: .vm/ at the top of the tree), E2E_BIN (folders
# separated by colons, put first on the guest's PATH, e.g. swift's bin paths),
# E2E_REPEAT (runs of the whole list in the one boot, default 1: a flake shows
# as a pass count), E2E_STEADY (seconds of the steady phase of the scenarios
# that have one, default 60; what it adds is added to every scenario's time limit),
# E2E_CONTROLLERS (the controller models the scenarios run on, in turn, default
# "btvirt"; "bumble" is Tests/Air's, from the venv .venv-air/ at the top of the
# tree), E2E_AIR_SEED (the seed of the Bumble model's noise in a scenario with
# `# air-noise:`, default a fresh one each run, which the run's output says).
# A scenario with a header line `# not-on-MODEL: REASON` does not run on
# MODEL: the summary lists it with its reason.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${E2E_CACHE:-$top/.vm}
# Every figure of the last suite, with its bound (report).
metrics=$top/.build/e2e/metrics.tsv

# Kernel modules the guest needs, in no particular order: prepare adds their
# dependencies. The algif/cmac/ecb ones give btvirt the kernel crypto it asks
# for through AF_ALG; without them it cannot open /dev/vhci. virtio_console:
# the serial port that carries a rooms guest's HCI to the host's air (rooms.sh).
modules="virtio_pci 9pnet_virtio 9p hci_vhci algif_hash algif_skcipher cmac ecb virtio_console"

log() { printf 'rig: %s\n' "$*" >&2; }

# The guest learns its paths from the kernel command line, split at spaces.
case "$here $cache" in *" "*" "*)
  log "the tree's path or E2E_CACHE holds a space, which the guest's command line cannot carry"
  exit 64 ;;
esac

# The cache is current when it was built from these exact inputs.
cache_key() {
  { echo "$modules"; cat "$here/init"; sha256sum </bin/busybox; } | sha256sum | cut -d' ' -f1
}

kernel_package() {
  apt-cache depends linux-image-amd64 2>/dev/null |
    awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}

prepare() {
  local key; key=$(cache_key)
  if [ -f "$cache/initrd.gz" ] && [ "$(cat "$cache/stamp" 2>/dev/null)" = "$key" ]; then
    return
  fi
  log "preparing the VM in $cache"
  mkdir -p "$cache"
  # The kernel is downloaded once and kept: rebuilding the initrd never needs the network.
  if [ ! -f "$cache/kernel.deb" ]; then
    local pkg; pkg=$(kernel_package)
    if [ -z "$pkg" ]; then
      log "apt lists are empty: running apt-get update"
      $(sudo_if_needed) apt-get update -q >/dev/null
      pkg=$(kernel_package)
    fi
    [ -n "$pkg" ] || { log "cannot resolve the kernel package behind linux-image-amd64"; exit 69; }
    log "downloading $pkg"
    (cd "$cache" && rm -f linux-image-*.deb &&
      apt-get download -q "$pkg" 2> >(grep -v unsandboxed >&2) >/dev/null &&
      mv linux-image-*.deb kernel.deb.part && mv kernel.deb.part kernel.deb)
  fi
  rm -rf "$cache/kernel" "$cache/initrd"
  dpkg-deb -x "$cache/kernel.deb" "$cache/kernel"
  local kver; kver=$(ls "$cache/kernel/lib/modules")
  local moddir=$cache/kernel/lib/modules/$kver
  depmod -b "$cache/kernel" "$kver"
  cp "$cache/kernel/boot/vmlinuz-$kver" "$cache/vmlinuz"

  mkdir -p "$cache/initrd"/{bin,modules,host,proc,sys,dev}
  cp /bin/busybox "$cache/initrd/bin/busybox"
  cp "$here/init" "$cache/initrd/init"
  chmod 0755 "$cache/initrd/init"
  # Modules are numbered in load order, dependencies first.
  local ordered=() n=0 m
  for m in $modules; do add_module "$moddir" "$(module_path "$moddir" "$m")"; done
  for m in "${ordered[@]}"; do
    n=$((n + 1))
    local dest; dest=$cache/initrd/modules/$(printf '%02d' $n)-$(basename "$m")
    cp "$moddir/$m" "$dest"
    case $dest in *.xz) xz -d "$dest" ;; *.zst) zstd -q --rm -d "$dest" ;; esac
  done
  (cd "$cache/initrd" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$cache/initrd.gz"
  rm -rf "$cache/kernel" "$cache/initrd"
  echo "$key" >"$cache/stamp"
  log "prepared: kernel $kver, ${#ordered[@]} modules"
}

# modules.dep maps "path.ko: dep.ko dep.ko ..." relative to the modules folder.
module_path() {
  local p; p=$(grep -E "/$2\.ko(\.xz|\.zst)?:" "$1/modules.dep" | cut -d: -f1)
  [ -n "$p" ] || { log "module $2 not found in the kernel package"; exit 70; }
  echo "$p"
}

add_module() { # adds $2 after its dependencies to the caller's `ordered`
  local moddir=$1 path=$2 seen dep
  for seen in "${ordered[@]}"; do [ "$seen" = "$path" ] && return; done
  for dep in $(grep "^$path:" "$moddir/modules.dep" | cut -d: -f2-); do add_module "$moddir" "$dep"; done
  ordered+=("$path")
}

sudo_if_needed() { [ "$(id -u)" = 0 ] || echo sudo; }

# Boots the guest on a plan (a shell file the guest sources) and streams its
# console to stdout and to $cache/console.log. $1: the plan, $2: seconds the
# whole VM may take.
boot() {
  local plan=$1 limit=$2
  [ -e /dev/kvm ] && log "using TCG, not KVM: KVM hangs at boot on these machines"
  timeout -k 10 "$limit" qemu-system-x86_64 -accel tcg -m 1024 -smp 2 \
    -nodefaults -no-user-config -display none -serial stdio -no-reboot \
    -kernel "$cache/vmlinuz" -initrd "$cache/initrd.gz" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1 e2e.main=$here/guest.sh e2e.plan=$plan" \
    -virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
    </dev/null | tee "$cache/console.log"
  return "${PIPESTATUS[0]}"
}

# A scenario's "# timeout: S" header line, 120 s when it has none; the
# guest reads the same line (guest.sh).
scenario_timeout() {
  local t; t=$(sed -n 's/^# timeout: *\([0-9][0-9]*\).*/\1/p' "$1" | head -1)
  echo "${t:-120}"
}

write_plan() { # $1: mode, then runs ("MODEL PATH")
  local mode=$1; shift
  {
    printf 'E2E_MODE=%q\nE2E_ROOT=%q\nE2E_BIN=%q\n' "$mode" "$here" "${E2E_BIN:-}"
    printf 'E2E_REPEAT=%q\nE2E_STEADY=%q\nE2E_AIR_SEED=%q\n' "$repeat" "$steady" "${E2E_AIR_SEED:-}"
    # Each run is "MODEL PATH"; the demo's controller is the first model.
    printf 'E2E_RUNS=(%s)\n' "$(printf '%q ' "$@")"
    printf 'E2E_CONTROLLER=%q\n' "${controllers[0]}"
    # The guest's console has no size and no type: the demo's table wants
    # the terminal's it is shown on.
    printf 'E2E_TTY_SIZE=%q\n' "$(stty size 2>/dev/null </dev/tty || echo '40 120')"
    printf 'E2E_TERM=%q\n' "${TERM:-linux}"
  } >"$cache/plan.sh"
}

# A scenario whose header says `# pending: REASON` is one that does not pass
# reliably yet: the default suite lists it with its reason instead of running
# it, so CI stays a verdict on what is claimed to work; naming it runs it.
pending_reason() { sed -n 's/^# pending: *//p' "$1" | head -1; }

# Why scenario $1 cannot run on controller model $2, from its `# not-on-$2:`
# header line; empty when it can.
not_on_reason() { sed -n "s/^# not-on-$2: *//p" "$1" | head -1; }

# The name a run reports under: the scenario's on btvirt, as it always was,
# NAME@MODEL on another model.
run_name() { # $1: model, $2: scenario path
  local name; name=$(basename "$2" .sh)
  if [ "$1" = btvirt ]; then echo "$name"; else echo "$name@$1"; fi
}

suite() {
  local scenarios=("$@") s limit=120 reason
  if [ ${#scenarios[@]} -eq 0 ]; then
    for s in "$here"/scenarios/*.sh; do
      reason=$(pending_reason "$s")
      if [ -n "$reason" ]; then pending+=("$(basename "$s" .sh): $reason"); else scenarios+=("$s"); fi
    done
  fi
  local c
  for c in "${controllers[@]}"; do
    for s in "${scenarios[@]}"; do
      [ -f "$s" ] || { log "no such scenario: $s"; exit 64; }
      s=$(readlink -f "$s")
      reason=$(not_on_reason "$s" "$c")
      if [ -n "$reason" ]; then skipped+=("$(basename "$s" .sh) on $c: $reason"); continue; fi
      # The guest enforces each scenario's limit; this one only catches a guest
      # that stopped answering. 30 s a scenario for (re)starting the stack.
      limit=$((limit + ($(scenario_timeout "$s") + (steady > 60 ? steady - 60 : 0) + 30) * repeat))
      resolved+=("$c $s")
    done
  done
  [ ${#resolved[@]} -gt 0 ] || { log "no scenario runs on ${controllers[*]}"; for s in "${skipped[@]}"; do log "  $s"; done; exit 64; }
  prepare
  write_plan suite "${resolved[@]}"
  local started=$SECONDS status=0
  boot "$cache/plan.sh" "$limit" || status=$?
  [ $status -eq 124 ] && log "the VM did not finish within ${limit}s"
  report "$((SECONDS - started))" "${resolved[@]}"
}

# Every run of every scenario must have said PASS; a missing result (a hang,
# a crash of the guest) is a failure too. Repeated runs are counted, and each
# metric is summed up as its lowest, median, 95th percentile and highest
# value; every metric of every run goes to $metrics.
report() {
  local elapsed=$1; shift
  local s name line failed=0 passes runs
  local results; results=$(tr -d '\r' <"$cache/console.log" | grep -E '^E2E-(RESULT|METRIC) ' || true)
  echo
  echo "== e2e summary (${elapsed}s in the VM, console in $cache/console.log)"
  local run model
  for run in "$@"; do
    model=${run%% *} s=${run#* }
    name=$(run_name "$model" "$s")
    runs=$(grep -E "^E2E-RESULT $name " <<<"$results" || true)
    passes=$(grep -cE "^E2E-RESULT $name PASS" <<<"$runs" || true)
    if [ "$repeat" -gt 1 ]; then
      [ "$passes" -eq "$repeat" ] || failed=1
      echo "  $([ "$passes" -eq "$repeat" ] && echo PASS || echo FAIL)  $model  $passes of $repeat runs passed  $name"
      grep -vE "^E2E-RESULT $name PASS" <<<"$runs" | sed -n "s/^E2E-RESULT $name FAIL /    failed: /p" || true
      continue
    fi
    line=$(tail -1 <<<"$runs")
    case $line in
      "E2E-RESULT $name PASS"*) echo "  PASS  $model  ${line#E2E-RESULT $name PASS }  $name" ;;
      "") echo "  FAIL  $model  no result (guest hung or crashed)  $name"; failed=1 ;;
      *) echo "  FAIL  $model  ${line#E2E-RESULT $name FAIL }  $name"; failed=1 ;;
    esac
  done
  for line in "${pending[@]}"; do echo "  PENDING  $line"; done
  for line in "${skipped[@]}"; do echo "  NOT RUN  $line"; done
  if [ "$repeat" -gt 1 ]; then
    grep '^E2E-METRIC ' <<<"$results" | metric_ranges || true
  else
    grep '^E2E-METRIC ' <<<"$results" | sed 's/^E2E-METRIC /  metric  /' || true
  fi
  metrics_file <<<"$results"
  echo "  metrics of every run in ${metrics#"$top"/}"
  return $failed
}

# The console's E2E-RESULT and E2E-METRIC lines in, $metrics out (through a
# temporary file): one tab-separated line per figure of every run, under a
# header line. A run's metrics come before its result, so a figure belongs
# to the run after the results already counted for its name.
metrics_file() {
  mkdir -p "$(dirname "$metrics")"
  awk 'BEGIN { OFS = "\t"; print "scenario", "controller", "run", "name", "value", "unit", "bound" }
    $1 == "E2E-RESULT" { runs[$2]++ }
    $1 == "E2E-METRIC" {
      at = index($2, "@")
      scenario = at ? substr($2, 1, at - 1) : $2; model = at ? substr($2, at + 1) : "btvirt"
      print scenario, model, runs[$2] + 1, $3, $4, $5, $6
    }' >"$metrics.part" && mv "$metrics.part" "$metrics"
}

# "E2E-METRIC scenario name value unit [bound]" lines in, one line per scenario and
# name out: the number of runs and the lowest, median, 95th percentile
# (nearest rank) and highest value.
# Metrics whose value is words (the radio's mode, what it advertised) are
# left out: each run's own lines have them.
metric_ranges() {
  awk '$4 !~ /^-?[0-9.]+$/ { next }
    { key = $2 " " $3; unit[key] = $5 == "-" ? "" : $5; v[key] = v[key] " " $4; if (!(key in n)) order[++keys] = key; n[key]++ }
    END {
      for (k = 1; k <= keys; k++) {
        key = order[k]; count = split(substr(v[key], 2), xs, " ")
        for (i = 2; i <= count; i++) for (j = i; j > 1 && xs[j - 1] + 0 > xs[j] + 0; j--) { t = xs[j]; xs[j] = xs[j - 1]; xs[j - 1] = t }
        printf "  metric  %s  %d runs: min %s, median %s, p95 %s, max %s%s\n", key, count, xs[1], xs[int((count + 1) / 2)],
          xs[int((95 * count + 99) / 100)], xs[count], unit[key] ? " " unit[key] : ""
      }
    }'
}

demo() {
  prepare
  write_plan demo "${controllers[0]} $here/demo.sh"
  boot "$cache/plan.sh" 300 || true
  local result; result=$(tr -d '\r' <"$cache/console.log" | grep '^E2E-RESULT demo ' || true)
  case $result in
    "E2E-RESULT demo PASS"*) ;;
    "") log "the demo did not finish (console in $cache/console.log)"; return 1 ;;
    *) log "the demo failed: ${result#E2E-RESULT demo FAIL * }"; return 1 ;;
  esac
}

resolved=() pending=() skipped=()
repeat=${E2E_REPEAT:-1} steady=${E2E_STEADY:-60}
read -ra controllers <<<"${E2E_CONTROLLERS:-btvirt}"
for c in "${controllers[@]}"; do
  case $c in btvirt | bumble) ;; *) log "unknown controller model $c (btvirt, bumble)"; exit 64 ;; esac
done
[ ${#controllers[@]} -gt 0 ] || { log "E2E_CONTROLLERS names no controller model"; exit 64; }
case "$repeat$steady" in *[!0-9]*) log "E2E_REPEAT and E2E_STEADY take whole numbers"; exit 64 ;; esac
[ "$repeat" -ge 1 ] || { log "E2E_REPEAT must be 1 or more"; exit 64; }
case "${E2E_AIR_SEED:-}" in *[!0-9]*) log "E2E_AIR_SEED takes a whole number"; exit 64 ;; esac
case "${1:-}" in
  prepare) prepare ;;
  suite) shift; suite "$@" ;;
  demo) demo ;;
  *) echo "usage: $0 prepare | suite [SCENARIO...] | demo" >&2; exit 64 ;;
esac

# Sourced by the benchmarks and the soak run that drive estimator against the
# fake bluetoothd (fake-bluez) on a private bus, with no Bluetooth at all.
#
#   fake_bluez_start FAKE_BLUEZ DIR
#
# Points the XDG directories into DIR (a throw-away folder), starts FAKE_BLUEZ
# with its stdin on fd 3 and its stdout on fd 4 (write commands to 3, read the
# one-line answers from 4), sets fake_pid, and exports its bus address as
# DBUS_SYSTEM_BUS_ADDRESS. The fake serves until fd 3 is closed.
fake_bluez_start() {
  local fake=$1 dir=$2
  export XDG_RUNTIME_DIR=$dir/run XDG_CONFIG_HOME=$dir/config XDG_STATE_HOME=$dir/state
  mkdir -m 0700 "$dir/run"
  mkfifo "$dir/fake.in" "$dir/fake.out"
  "$fake" <"$dir/fake.in" >"$dir/fake.out" &
  fake_pid=$!
  exec 3>"$dir/fake.in" 4<"$dir/fake.out"
  # The fake's first line is its bus address.
  read -r -t 30 DBUS_SYSTEM_BUS_ADDRESS <&4 || { echo "fake-bluez printed no bus address" >&2; return 1; }
  export DBUS_SYSTEM_BUS_ADDRESS
}

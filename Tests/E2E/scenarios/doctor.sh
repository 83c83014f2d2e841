# `estimator doctor` on the real stack: every check passes on a powered
# emulated radio (the kernel's hci_devinfo agrees with BlueZ), and with the
# adapter powered off it exits 69 naming the fix.
# radios: 1
# timeout: 90

status=0
estimator doctor >"$E2E_WORK/doctor.out" 2>&1 || status=$?
cat "$E2E_WORK/doctor.out"
[ "$status" -eq 0 ] || fail "doctor exited $status on a working stack"
for check in "system bus" "org.bluez" "D-Bus policy" "adapters" "adapter powered" "rfkill" "kernel" "advertising slots"; do
  grep -q "^✔ $check: " "$E2E_WORK/doctor.out" || fail "doctor did not pass '$check'"
done
grep -q "^✔ kernel: hci0 is up and running, as BlueZ says" "$E2E_WORK/doctor.out" ||
  fail "doctor's kernel line: $(grep kernel "$E2E_WORK/doctor.out")"

adapter_power 0 off
status=0
estimator doctor >"$E2E_WORK/off.out" 2>&1 || status=$?
cat "$E2E_WORK/off.out"
[ "$status" -eq 69 ] || fail "doctor exited $status with hci0 powered off, not 69"
grep -q "^✘ adapter powered: hci0 is powered off" "$E2E_WORK/off.out" || fail "doctor did not name the powered-off adapter"
grep -q "fix: \`bluetoothctl power on\`" "$E2E_WORK/off.out" || fail "doctor did not give the fix for power"

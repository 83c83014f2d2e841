# The helper library does what scenarios will rely on: background programs
# with input and output, a metric's bound, powering an adapter, restarting
# bluetoothd, unplugging a radio, each seen through BlueZ's D-Bus API.
# radios: 2
# timeout: 120
# not-on-bumble: it checks radio_add and radio_remove, whose radio is a btvirt process of its own

# A background program: lines in, lines out, consumed in order, and its end.
bg_start echo cat
bg_send echo "first line"
bg_send echo "second line"
[ "$(bg_expect echo 'line$')" = "first line" ] || fail "bg_expect did not return the first match"
[ "$(bg_expect echo 'line$')" = "second line" ] || fail "bg_expect did not consume the first match"
bg_expect_none echo 'line$' 1
status=0
bg_stop echo || status=$?
[ "$status" -eq 143 ] || fail "cat ended by TERM returned $status, not 143"

# A metric's bound: numbers as numbers, words only equal.
within 1.4 '<= 1.5' && within 10 '<= 10' && within 0 '= 0' && within 2 '>= 1' && within strict '= strict' ||
  fail "within refused a value that keeps its bound"
! within 1.6 '<= 1.5' && ! within 8192 '< 8192' && ! within light '= strict' && ! within none '<= 1' ||
  fail "within let a value past its bound"

adapter_power 1 off
adapter_powered 1 && fail "hci1 still powered for BlueZ after btmgmt power off"
adapter_power 1 on

bluetoothd_restart
adapter_powered 0 && adapter_powered 1 || fail "adapters not powered after a bluetoothd restart"

extra=$(radio_add)
adapter_powered "$extra" || fail "hci$extra not powered after radio_add"
radio_remove "$extra"
wait_until 10 eval "! bluez_property /org/bluez/hci$extra Adapter1 Address"

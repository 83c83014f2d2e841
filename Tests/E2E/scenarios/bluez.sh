# The BlueZ module on the real stack, through bluez-probe: hci0 advertises
# through LEAdvertisingManager1, hci1 discovers with periodic restarts; the
# name is seen, changed by PropertiesChanged and seen changed; after stop()
# the advertiser is not heard through several restarts. Figures:
# RegisterAdvertisement latency, update(localName:) -> seen on hci1.
# radios: 2
# timeout: 120

command -v bluez-probe >/dev/null || fail "bluez-probe is not built (make e2e builds it)"

bluez-probe kernel >"$E2E_WORK/kernel.out" || fail "bluez-probe kernel: $(cat "$E2E_WORK/kernel.out")"
grep -q '^controller [0-9]* hci0 .* up=true running=true' "$E2E_WORK/kernel.out" ||
  fail "the kernel's view of hci0 is not up and running: $(cat "$E2E_WORK/kernel.out")"

bluez-probe adapters >"$E2E_WORK/adapters.out" || fail "bluez-probe adapters: $(cat "$E2E_WORK/adapters.out")"
grep -q '^adapter [0-9]* hci1 .* powered=true free=[1-9]' "$E2E_WORK/adapters.out" ||
  fail "hci1 is not listed as powered with free advertising slots: $(cat "$E2E_WORK/adapters.out")"

# Errors: an adapter that does not exist.
status=0
bluez-probe advertise hci9 010108Nobody "$E2E_UUID" >"$E2E_WORK/missing.out" || status=$?
[ "$status" -eq 1 ] && grep -q '^error [0-9]* adapterNotFound' "$E2E_WORK/missing.out" ||
  fail "advertising on hci9 did not fail with adapterNotFound: $(cat "$E2E_WORK/missing.out")"

bg_start scanner bluez-probe discover hci1 "$E2E_UUID" 1
bg_expect scanner '^discovering' 10 >/dev/null

bg_start advertiser bluez-probe advertise hci0 010108Probe "$E2E_UUID"
line=$(bg_expect advertiser '^registered' 10)
metric register_advertisement_ms "${line##* }" ms
bg_expect scanner '^seen .* 010108Probe$' 15 >/dev/null

# Name change: PropertiesChanged on the exported object, not a re-registration.
bg_mark scanner
bg_send advertiser "name 010105Probe"
sent=$(bg_expect advertiser '^updated' 10 | awk '{ print $2 }')
seen=$(bg_expect scanner '^seen .* 010105Probe$' 15 | awk '{ print $2 }')
metric update_to_seen_ms $((seen - sent)) ms

# Still there: the restarts make the advertiser heard again and again.
bg_mark scanner
bg_expect scanner '^restarted' 5 >/dev/null
bg_expect scanner '^seen .* 010105Probe$' 5 >/dev/null

# Gone after stop(): two restarts and nothing of it after the second.
bg_send advertiser stop
bg_expect advertiser '^stopped' 10 >/dev/null
bluez-probe adapters | grep -q '^adapter [0-9]* hci0 .* free=[1-9]' ||
  fail "hci0's advertising slot was not freed by stop()"
bg_expect scanner '^restarted' 5 >/dev/null
bg_expect scanner '^restarted' 5 >/dev/null
bg_expect_none scanner 'Probe$' 3

# bluetoothd going away ends the advertisement and the discovery with an event.
bg_stop scanner
bg_start advertiser2 bluez-probe advertise hci0 010108Again "$E2E_UUID"
bg_expect advertiser2 '^registered' 10 >/dev/null
bluetoothd_stop
bg_expect advertiser2 '^ended [0-9]* (released|bluetoothdGone)' 10 >/dev/null
bluetoothd_start

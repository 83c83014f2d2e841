# What the emulated air does, checked, since every other scenario relies
# on it:
# - a radio made by another btvirt process hears nobody, so a scenario's
#   radios share one process and only radio_add's extra ones can be unplugged;
# - a scanner hears an advertiser each time the advertiser (re)starts:
#   always, so scenarios scan first and advertise after;
# - (not checked: it holds only sometimes) a scanner hears the advertisers
#   already on air once, when its scan starts, and not always: the
#   controller answers at once and the kernel drops reports that come
#   before it counts the discovery as started (a race real radios hide by
#   repeating every 100 ms). Nothing repeats (docs/RIG.md);
# - without a discovery filter BlueZ ignores advertisers whose flags do not
#   say "discoverable"; with any filter set (as estimator sets one), it
#   reports them.
# radios: 2
# timeout: 180
# not-on-bumble: it measures btvirt's own air (what one btvirt process hears, and that nothing repeats)

lone=$(radio_add)
bg_start lone script -qec "btmgmt --index $lone find -l" /dev/null
bg_expect lone 'discovering on' 20 >/dev/null

scan_start 1
heard=0
for i in 1 2 3; do
  advertise 0 "010108Air$i"
  if scan_await_name "010108Air$i" 5 >/dev/null; then heard=$((heard + 1)); fi
done
metric heard_when_advertiser_starts "$heard" - '= 3'

# Count the kernel's device-found events that reach bluetoothd (its debug log).
found_events() { grep -a -c "device_found_callback() hci1 " "$E2E_WORK/bluetoothd.log" || true; }

bg_expect lone 'discovering off' 30 >/dev/null
if grep -q dev_found "$E2E_WORK/lone.out"; then
  fail "hci$lone, a radio of another btvirt process, heard hci0"
fi

# No -g: flags without "discoverable". bluetoothctl's discovery has no filter.
before=$(found_events)
mgmt --index 0 add-adv -u "$E2E_UUID" -s "$(ad_local_name 010108Quiet)" 1 >/dev/null
wait_until 10 eval '[ "$(found_events)" -gt "$before" ]'
bg_expect_none scanner '010108Quiet' 3
bg_send scanner "menu scan"
bg_send scanner "transport le"
bg_send scanner "back"
bg_send scanner "scan off"
bg_expect scanner 'Discovery stopped' 10 >/dev/null
bg_send scanner "scan on"
bg_expect scanner 'Discovering: yes' 10 >/dev/null
mgmt --index 0 add-adv -u "$E2E_UUID" -s "$(ad_local_name 010108Quiet2)" 1 >/dev/null
scan_expect_name '010108Quiet2' 10 >/dev/null

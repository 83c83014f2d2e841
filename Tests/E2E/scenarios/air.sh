# What the emulated air does, measured, since every other scenario relies
# on it:
# - radios of one btvirt process hear each other; a radio made by another
#   btvirt process hears nobody (so a scenario's radios share one process);
# - a discovery hears an advertiser when it starts (and when the advertiser
#   (re)starts), not continuously: the metric is reports per 10 s discovery;
# - the kernel reports an advertiser whose flags do not say "discoverable",
#   but BlueZ's discovery ignores it (BlueZ's "broadcast" adverts are such).
# radios: 2
# timeout: 120

lone=$(radio_add)
# No -g: the flags byte says "not discoverable".
mgmt --index 0 add-adv -u "$E2E_UUID" -s "$(ad_local_name 010108Quiet)" 1 >/dev/null
mgmt --index 1 find -l >"$E2E_WORK/find-same-process.out" &
same=$!
mgmt --index "$lone" find -l >"$E2E_WORK/find-other-process.out" &
other=$!
wait "$same" "$other"

reports=$(grep -c 'dev_found' "$E2E_WORK/find-same-process.out" || true)
metric reports_per_discovery "$reports"
grep -q 'name 010108Quiet' "$E2E_WORK/find-same-process.out" ||
  fail "hci1 did not hear hci0, a radio of the same btvirt process"
if grep -q 'dev_found' "$E2E_WORK/find-other-process.out"; then
  fail "hci$lone, a radio of another btvirt process, heard hci0: radio_remove could work on any radio"
fi

scan_start 1
bg_expect_none scanner '010108Quiet' 8

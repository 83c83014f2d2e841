# `join` with no adapter present exits 69 (unavailable)
# with one clear sentence naming the adapter, and leaves no session behind.
# radios: 0
# timeout: 60
# not-on-bumble: no radios, nothing of the controller's to run

status=0
estimator join --adapter hci0 --channel 1 --name Nobody >"$E2E_WORK/join.out" 2>&1 || status=$?
cat "$E2E_WORK/join.out"
[ "$status" -eq 69 ] || fail "join without an adapter exited $status, not 69"
grep -q 'no Bluetooth adapter hci0' "$E2E_WORK/join.out" || fail "join's message does not name the missing adapter: $(cat "$E2E_WORK/join.out")"
[ "$(wc -l <"$E2E_WORK/join.out")" -le 2 ] || fail "join said more than a sentence: $(cat "$E2E_WORK/join.out")"
status=0
estimator status >/dev/null 2>&1 || status=$?
[ "$status" -eq 69 ] || fail "a session is left behind (status exited $status)"

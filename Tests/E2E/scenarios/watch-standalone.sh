# `estimator watch` with no session scans by itself: on hci1, advertising
# nothing, it sees every channel: a raw advertiser in the app's format on
# hci0 (btmgmt, channel 1) and an estimator session on hci2 (channel 2).
# The watch is --open: what is checked is that the radio shows a card, not
# the reveal (which waits 4 s of listening after the watch starts).
# radios: 3
# timeout: 120

# Scan first, advertise after: the raw advertiser starts once, and an
# advertiser already on the air is heard only at some scan starts (air.sh).
bg_start watch estimator watch --json --open --adapter hci1
wait_until 10 discovering 1
advertise 0 010105Raw
bg_expect watch '"event":"joined","channel":1,"round":null,"name":"Raw","card":"5","cardRaw":"05"' 15 >/dev/null

estimator join --adapter hci2 --channel 2 --name Sess >"$E2E_WORK/join.out" 2>&1 ||
  fail "join on hci2: $(cat "$E2E_WORK/join.out")"
# Before its first pick a session sends card FC, "here, no card yet"
# (docs/PROTOCOL.md, Cards): a row that has not voted. The emulated air
# re-reports an advertiser only now and then (see air.sh): give it time.
bg_expect watch '"channel":2,"round":null,"name":"Sess","card":"waiting","cardRaw":"FC"' 30 >/dev/null
estimator pick 8 --adapter hci2 >/dev/null
bg_expect watch '"event":"card","channel":2,"round":null,"name":"Sess","card":"8","cardRaw":"08"' 30 >/dev/null

# It advertises nothing: hci1 holds no advertising instance.
active=$(active_instances 1)
[ "$active" = 0 ] || fail "watch without a session registered an advertisement on hci1 ($active active)"

estimator leave --adapter hci2 >/dev/null
status=0
bg_stop watch INT || status=$?
[ "$status" -eq 0 ] || fail "watch ended by Ctrl-C returned $status, not 0"

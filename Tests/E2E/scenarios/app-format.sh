# Issue 6, scenario 6: an advertiser in the Estimator app's format, made with
# raw btmgmt (service UUID + local name "010008" + a name longer than 12
# bytes, which the app does not cut), appears in `watch --channel 0` with its
# card. A session in channel 0 on hci0 does the scanning, as a teammate's
# would. The watch is --open: what is checked is the decoding, not the reveal
# (the listener has no card, so the round would stay hidden).
# radios: 2
# timeout: 60

estimator join --adapter hci0 --channel 0 --name Listener >/dev/null || fail "join on hci0"
bg_start watch0 estimator watch --adapter hci0 --channel 0 --open --json
# A phone repeats its advertisement every ~100 ms; the emulated radio reports
# one only when it starts (and the session's scan restarts every 1.5 s or
# so), so the app's advertiser is re-added each second, as the phone keeps
# repeating.
app=$(ad_local_name '010008Marguerite-Anne')
advertise_raw 1 "$app"
( for _ in $(seq 14); do sleep 1; advertise_raw 1 "$app"; done ) >/dev/null 2>&1 &
bg_expect watch0 '"event":"joined","channel":0,"round":null,"name":"Marguerite-Anne","card":"8","cardRaw":"08"' 15 >/dev/null

# Issue 6, scenario 6: an advertiser in the Estimator app's format, made with
# raw btmgmt (service UUID + local name "010008" + a name longer than 12
# bytes, which the app does not cut), appears in `watch --channel 0`. Until
# watch scans on its own, a session in channel 0 on hci0 does the scanning.
# radios: 2
# timeout: 60

estimator join --adapter hci0 --channel 0 --name Listener >/dev/null || fail "join on hci0"
bg_start watch0 estimator watch --adapter hci0 --channel 0 --json
# The session scans from the moment join returns; a scanner hears an
# advertiser start every time.
advertise_raw 1 "$(ad_local_name '010008Marguerite-Anne')"
bg_expect watch0 '"event":"joined","channel":0,"name":"Marguerite-Anne","card":"8","cardRaw":"08"' 15 >/dev/null

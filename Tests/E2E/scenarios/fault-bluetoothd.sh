# Issue 7: bluetoothd stopped (TERM, as `systemctl restart bluetooth` does;
# fault-bluetoothd-crash.sh runs this with KILL, a crash) and started again.
# The session on hci0 (Ann) says so in `status` while it is gone and keeps a
# pick made meanwhile; when org.bluez returns it re-registers and rescans by
# itself. The peer is a plain scanner on hci1 (bluetoothctl, scanning without
# pause as the Estimator app does), started again once bluetoothd is back: it
# hears Ann's advertisement start, at Ann's registration and at each of her
# discovery restarts. Figure: from org.bluez back on the bus to Ann's new
# card heard on hci1 (target: within 5 s).
# radios: 2
# timeout: 120

# Shown with the output when the scenario fails.
trap 'for f in "$XDG_STATE_HOME"/estimator/*.log; do sed "s|^|${f##*/}: |" "$f"; done >&2
  grep -a -E "^----|discovering_callback|_discovery\(\)|add_client_complete|register_advertisement|Failed|Refreshing" \
    "$E2E_WORK/bluetoothd.log" | tail -n 120 | sed "s/^/bluetoothd: /" >&2' EXIT

# scan_start, with a transport filter: without one BlueZ ignores advertisers
# that are not discoverable, as a session's advertisement is not (air.sh).
# After a crash the kernel goes on with the dead daemon's scan until its
# timeout (10.24 s), and BlueZ answers InProgress meanwhile: ask again.
scan_le() {
  echo "$1" >"$E2E_WORK/scanner.hci"
  bg_start scanner bluetoothctl
  bg_send scanner "select $(adapter_address "$1")"
  for line in "menu scan" "transport le" "back"; do bg_send scanner "$line"; done
  local deadline=$(($(now_ms) + 20000)) answer
  while :; do
    bg_send scanner "scan on"
    answer=$(bg_await scanner 'Discovery started|Failed to start discovery' 5 | tail -n 1) || true
    [[ $answer == *"Discovery started"* ]] && return
    [ "$(now_ms)" -lt $deadline ] || fail "hci$1's scanner could not start discovery within 20 s: ${answer:-no answer}"
    sleep 1  # pacing the retries, not waiting for an event
  done
}

estimator join --adapter hci0 --channel 1 --name Ann >/dev/null || fail "join on hci0"
estimator pick --adapter hci0 5 >/dev/null
scan_le 1
scan_expect_name '010105Ann' 20 >/dev/null

radio_says() { estimator status --adapter "$1" | tee "$E2E_WORK/status-$1" | grep -q "radio: $2"; }
active_instances() {
  bluez_property "/org/bluez/hci$1" LEAdvertisingManager1 ActiveInstances | awk '/byte/ { print $NF }'
}

signal=${signal:-TERM}
bluetoothd_pid=$(cat "$E2E_WORK/bluetoothd.pid")
kill "-$signal" "$bluetoothd_pid"
wait_until 10 eval "! bus_has_name org.bluez"
wait "$bluetoothd_pid" 2>/dev/null || true
wait_until 10 radio_says hci0 'bluetoothd is not running'
estimator status --adapter hci0 | sed 's/^/status while gone: /'
reply=$(estimator pick --adapter hci0 8) || fail "pick while bluetoothd is gone failed"
[[ $reply == *"on the air once the radio is back"* ]] || fail "pick while bluetoothd is gone said: $reply"

scan_stop || true  # ended by TERM
echo "---- bluetoothd started $(date +%T.%3N)" >>"$E2E_WORK/bluetoothd.log"
"$BLUETOOTHD" -n -d --experimental >>"$E2E_WORK/bluetoothd.log" 2>&1 &
echo $! >"$E2E_WORK/bluetoothd.pid"
until bus_has_name org.bluez; do sleep 0.05; done
back=$(now_ms)
adapter_ready 1
scan_le 1
scan_expect_name '010108Ann' 20 >/dev/null
seen=$(($(now_ms) - back))
metric "after_${signal,,}_card_seen" "$(awk -v ms=$seen 'BEGIN { printf "%.2f", ms / 1000 }')" s
wait_until 10 radio_says hci0 'advertising and scanning'
[ "$(active_instances 0)" = 1 ] || fail "hci0 holds $(active_instances 0) advertisements after the $signal, not 1"
[ $seen -le 5000 ] || fail "after bluetoothd's $signal, hci1 heard Ann's new card ${seen} ms after org.bluez returned, not within 5 s"

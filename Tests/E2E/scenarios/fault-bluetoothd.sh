# bluetoothd stopped (TERM, as `systemctl restart bluetooth` does;
# fault-bluetoothd-crash.sh runs this with KILL, a crash) and started again.
# The session on hci0 (Ann) says so in `status` while it is gone and keeps a
# pick made meanwhile; when org.bluez returns it re-registers and rescans by
# itself. The peer is `estimator watch` alone on hci1 (scanning for
# itself, advertising nothing, as a teammate who only watches), started again
# once bluetoothd is back, since the one bluetoothd serves both radios here.
# It watches --open: what is measured is the radio's return, not the reveal
# (which waits 4 s of listening after a watch starts).
# Figure: from org.bluez back on the bus to Ann's new card in the peer's
# table (target: within 5 s).
# radios: 2
# timeout: 120

# Shown with the output when the scenario fails, with bluetoothd's own
# account of its discovery and advertising across the restart.
report_failure 20 peer peer2
failure_extra() {
  grep -a -E "^----|discovering_callback|_discovery\(\)|add_client_complete|register_advertisement|Failed|Refreshing" \
    "$E2E_WORK/bluetoothd.log" | tail -n 120 | sed "s/^/bluetoothd: /"
}

estimator join --adapter hci0 --channel 1 --name Ann >/dev/null || fail "join on hci0"
estimator pick --adapter hci0 5 >/dev/null
bg_start peer estimator watch --adapter hci1 --channel 1 --open --json
bg_expect peer '"round":null,"name":"Ann","card":"5"' 20 >/dev/null

signal=${signal:-TERM}
bluetoothd_pid=$(cat "$E2E_WORK/bluetoothd.pid")
kill "-$signal" "$bluetoothd_pid"
killed=$(now_ms)
wait_until 10 eval "! bus_has_name org.bluez"
wait "$bluetoothd_pid" 2>/dev/null || true
wait_until 10 radio_says hci0 'bluetoothd is not running'
estimator status --adapter hci0 | sed 's/^/status while gone: /'
reply=$(estimator pick --adapter hci0 8) || fail "pick while bluetoothd is gone failed"
[[ $reply == *"on the air once the radio is back"* ]] || fail "pick while bluetoothd is gone said: $reply"

bg_stop peer || true  # it ends with an error when bluetoothd leaves
# bluetoothd returns that many seconds after the signal (see the crash scenario).
remaining=$((${return_after:-0} * 1000 - ($(now_ms) - killed)))
[ $remaining -le 0 ] || sleep "$(awk -v ms=$remaining 'BEGIN { printf "%.3f", ms / 1000 }')"
echo "---- bluetoothd started $(date +%T.%3N)" >>"$E2E_WORK/bluetoothd.log"
"$BLUETOOTHD" -n "$BLUETOOTHD_DEBUG" --experimental >>"$E2E_WORK/bluetoothd.log" 2>&1 &
echo $! >"$E2E_WORK/bluetoothd.pid"
until bus_has_name org.bluez; do nap 0.05; done
back=$(now_ms)
measuring "$back"
adapter_ready 1
bg_start peer2 estimator watch --adapter hci1 --channel 1 --open --json
seen=$(seen_ms peer2 '"round":null,"name":"Ann","card":"8"' 20 "$back")
# The card seen on the peer within 5 s of bluetoothd's return
# (docs/MEASUREMENTS.md, Recovery).
metric "after_${signal,,}_card_seen" "$(awk -v ms=$seen 'BEGIN { printf "%.2f", ms / 1000 }')" s '<= 5'
wait_until 10 radio_says hci0 'advertising and scanning'
[ "$(active_instances 0)" = 1 ] || fail "hci0 holds $(active_instances 0) advertisements after the $signal, not 1"

# An adapter powered off and on again (btmgmt, the kernel's
# management interface). The session on hci0 says so in `status`, keeps a
# card picked meanwhile and, once powered, advertises and scans again by
# itself: the session on hci1 sees the new card. Figure: from power on
# (BlueZ has it powered with its advertising manager) to the card seen. The
# watch is --open: Bob has no card, so Ann's would stay hidden.
# radios: 2
# timeout: 120

report_failure 20 watch1
estimator join --adapter hci0 --channel 1 --name Ann >/dev/null || fail "join on hci0"
estimator join --adapter hci1 --channel 1 --name Bob >/dev/null || fail "join on hci1"
estimator pick --adapter hci0 5 >/dev/null
bg_start watch1 estimator watch --adapter hci1 --open --json
bg_expect watch1 '"round":null,"name":"Ann","card":"5"' 20 >/dev/null

adapter_power 0 off
wait_until 10 radio_says hci0 'hci0 is powered off'
reply=$(estimator pick --adapter hci0 13) || fail "pick while powered off failed"
[[ $reply == *"on the air once the radio is back"* ]] || fail "pick while powered off said: $reply"

bg_mark watch1
# From before the command: the session can have the card on the air before
# adapter_power returns, and seen_ms fails a card seen before its start.
on=$(now_ms)
measuring "$on"
adapter_power 0 on
seen=$(seen_ms watch1 '"round":null,"name":"Ann","card":"[^"]*","cardRaw":"0D"' 15 "$on")
# Within the recovery bound (docs/MEASUREMENTS.md, Recovery: 5 s).
metric power_on_to_card_seen "$(awk -v ms="$seen" 'BEGIN { printf "%.2f", ms / 1000 }')" s '<= 5'
wait_until 10 radio_says hci0 'advertising and scanning'
[ "$(active_instances 0)" = 1 ] || fail "hci0 holds $(active_instances 0) advertisements after power on, not 1"

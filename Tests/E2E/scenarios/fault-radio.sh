# A radio unplugged and plugged in again. The radio is a btvirt
# process of its own (radio_add), so it hears nobody: what is checked is
# the session's own account. While it is gone `status` says so; when the
# kernel brings hciN back the session re-registers its advertisement and
# scans again without being restarted; a session on another radio is not
# disturbed. Figure: from BlueZ's adapter ready to the advertisement back.
# radios: 1
# timeout: 120
# not-on-bumble: the unplugged radio is a btvirt process of its own (radio_add)

report_failure 0
extra=$(radio_add)
estimator join --adapter hci0 --channel 1 --name Stays >/dev/null || fail "join on hci0"
estimator join --adapter "hci$extra" --channel 1 --name Solo >/dev/null || fail "join on hci$extra"
estimator pick --adapter "hci$extra" 8 >/dev/null
wait_until 10 eval '[ "$(active_instances "$extra")" = 1 ]'

radio_remove "$extra"
wait_until 10 radio_says "hci$extra" "There is no Bluetooth adapter hci$extra"
radio_says hci0 'advertising and scanning' || fail "hci0's session was disturbed by hci$extra's removal"

again=$(radio_add)
[ "$again" = "$extra" ] || fail "the new radio is hci$again, not hci$extra"
ready=$(now_ms)  # radio_add returns once BlueZ has the adapter powered with its advertising manager
wait_until 10 eval '[ "$(active_instances "$extra")" = 1 ]'
# Within the recovery bound (docs/MEASUREMENTS.md, Recovery: 5 s).
metric adapter_back_to_advertising "$(awk -v ms=$(($(now_ms) - ready)) 'BEGIN { printf "%.2f", ms / 1000 }')" s '<= 5'
wait_until 10 radio_says "hci$extra" 'advertising and scanning'
wait_until 10 discovering "$extra"
estimator status --adapter "hci$extra" | grep -q 'card 8' || fail "the session forgot its card"
radio_says hci0 'advertising and scanning' || fail "hci0's session was disturbed by hci$extra's return"

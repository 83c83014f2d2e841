# A session in channel 2 is not shown in channel 1,
# while a session in channel 1 on the same air is. The watch is --open: the
# watcher has no card, so Bob's would otherwise stay hidden.
# radios: 3
# timeout: 90
# not-on-bumble: which channel a packet is in is the session's reading of the packet, the same from any controller

estimator join --adapter hci0 --channel 1 --name 전수열 >/dev/null || fail "join on hci0"
estimator join --adapter hci1 --channel 2 --name Carol >/dev/null || fail "join on hci1"
estimator join --adapter hci2 --channel 1 --name Bob >/dev/null || fail "join on hci2"
estimator pick --adapter hci1 8 >/dev/null
estimator pick --adapter hci2 5 >/dev/null
bg_start watch0 estimator watch --adapter hci0 --open --json
bg_expect watch0 '"channel":1,"round":null,"name":"Bob","card":"5"' 15 >/dev/null
bg_expect_none watch0 '"name":"Carol"' 10

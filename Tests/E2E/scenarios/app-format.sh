# The Estimator app's format on the air.
# First a whole packet as a future app might send it (raw btmgmt on hci5:
# service UUID + the complete local name "010008" + a name longer than 12
# bytes, which the app does not cut), discoverable like the app, from a new
# address each time it is re-added: one row all the same. A radio that sent a scan response
# keeps it through a new advertisement without one (btvirt), so the
# iPhones have radios of their own. Then three iPhones as they really
# advertise (Tests/Air's iPhone model, iphone_advertise: the name cut to 8
# bytes): Alice (8) and Alex (5), both "Al", and 전수열 (coffee), of whom
# two bytes of 전 are left. They are three rows on every watch, with their
# cards: two `Al` told apart by their devices and one cut to nothing, all
# marked app users. Then Alice's iPhone takes a new address, which adds no
# row and turns none stale, and from it picks 3, which every watch shows
# (BlueZ keeps a connectable device's first short name: the discovery
# removes the app's devices at each scan restart).
# A session in channel 0 on hci0 does the scanning, as a teammate's would,
# with a watch attached; a watch scanning by itself on hci1 is the second
# view. The watches are --open: what is checked is the decoding, not the
# reveal (the listener has no card, so the round would stay hidden).
# radios: 6
# timeout: 150

# Shown with the output when the scenario fails: what each watch printed,
# what each iPhone said, and the air.
trap 'trap - EXIT; [ ! -s "$E2E_WORK/reason" ] || { for w in watch0 watch1; do
  echo "---- $w ----"; tail -n 30 "$E2E_WORK/$w.out" | cut -c1-240
done; for i in 2 3 4; do echo "---- iPhone on hci$i ----"; cat "$E2E_WORK/iphone$i.out" "$E2E_WORK/iphone$i.log" 2>/dev/null; done
  echo "---- the air, 10 s before the end ----"; air_timeline 10 | grep -v "Read Control" | tail -n 80; } >&2' EXIT
air_record
estimator join --adapter hci0 --channel 0 --name Listener >/dev/null || fail "join on hci0"
bg_start watch0 estimator watch --adapter hci0 --channel 0 --open --json
bg_start watch1 estimator watch --adapter hci1 --channel 0 --open --json
# A phone repeats its advertisement every ~100 ms; the emulated radio reports
# one only when it starts (and the session's scan restarts every 1.5 s or
# so), so the app's advertiser is re-added each second, as the phone keeps
# repeating.
app=$(ad_local_name '010008Marguerite-Anne')
advertise_raw 5 "$app"
( for _ in $(seq 14); do sleep 1; advertise_raw 5 "$app"; done ) >/dev/null 2>&1 &
bg_expect watch0 '"event":"joined","channel":0,"round":null,"name":"Marguerite-Anne","card":"8","cardRaw":"08"' 15 >/dev/null

# The iPhones.
iphone_advertise 2 '010008Alice'
iphone_advertise 3 '010005Alex'
iphone_advertise 4 '0100FE전수열'
rows() { # the app users who joined in a watch's output, one a line: name card app cut
  sed -n 's/.*"event":"joined","channel":0,"round":null,"name":"\([^"]*\)","card":"[^"]*","cardRaw":"\([^"]*\)".*"app":\([a-z]*\),"cut":\([a-z]*\).*/\1 \2 \3 \4/p' \
    "$E2E_WORK/$1.out" | grep -v -e '^Marguerite-Anne ' -e '^Listener ' | LC_ALL=C sort
}
# Three app users: Al with 8, Al with 5, and one cut to nothing with coffee.
expected=$'\x20FE true true\nAl 05 true false\nAl 08 true false'
has_rows() { [ "$(rows "$1")" = "$expected" ]; }
for w in watch0 watch1; do
  wait_until 20 has_rows $w
done
# The whole-packet advertiser, re-added from a new address every time, is
# one row too (AppUsers: no namesake was heard at once with its addresses).
for w in watch0 watch1; do
  joins=$(grep -c '"event":"joined","channel":0,"round":null,"name":"Marguerite-Anne"' "$E2E_WORK/$w.out" || true)
  [ "$joins" -eq 1 ] || fail "$w shows Marguerite-Anne as $joins rows"
done
# What BlueZ names them: the shortened names as sent, the Korean one with
# its broken character gone (BlueZ turns invalid UTF-8 into spaces and
# trims). Each is removed and read again at every scan restart, so a device
# can be missing for a moment.
named() { bluez_devices_named 0 "$1" | grep -q .; }
for name in 010008Al 010005Al 0100FE; do wait_until 10 named $name; done
before=$(iphone_address 2)
echo "the iPhone advertises from $before"

# Alice's iPhone takes a new address: it is heard from a new device, and is
# the same row on every watch, with no row added, none left and none stale
# (a phone advertises on through the change).
bg_mark watch0
bg_mark watch1
after=$(iphone_new_address 2)
echo "the iPhone moved to $after"
# A resolvable private address starts with the bits 01.
case $after in [4-7]?:*) ;; *) fail "the iPhone's new address $after does not look resolvable" ;; esac
[ "$after" != "$before" ] || fail "the iPhone kept its address $before"
moved() { bluez_devices_named 0 010008Al | grep -qx "$after"; }
wait_until 20 moved
bg_expect_none watch0 '"event":"(joined|left|stale)","channel":0,"round":null,"name":"Al"' 10
bg_expect_none watch1 '"event":"(joined|left|stale)","channel":0,"round":null,"name":"Al"' 1
for w in watch0 watch1; do
  has_rows $w || fail "$w's rows after the address change: $(rows $w | tr '\n' ';')"
done

# Alice picks 3 (the app leaves with FF and comes back; the card is what
# counts), on the same address: every watch shows an Al with 3, and Alex's 5.
iphone_send 2 '010003Alice'
for w in watch0 watch1; do
  bg_expect $w '"event":"card","channel":0,"round":null,"name":"Al","card":"3","cardRaw":"03"' 15 >/dev/null
  bg_expect_none $w '"event":"(joined|left)","channel":0,"round":null,"name":"Al"' 3
done

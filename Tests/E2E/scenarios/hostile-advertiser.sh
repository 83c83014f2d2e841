# Hostile advertisers can be made: raw scan-response bytes through btmgmt
# reach BlueZ's D-Bus API on another radio. What BlueZ passes on is what
# estimator must sanitise: terminal escapes and control bytes arrive intact;
# in a name that is not valid UTF-8, BlueZ turns each invalid byte into a
# space.
# radios: 3
# timeout: 90
# not-on-bumble: the bytes under test are what BlueZ passes on from a scan response, the same from any controller

scan_start 2

# ESC [2J (clear screen), BEL, a right-to-left override (U+202E), ESC ]0; (title).
evil=$(printf '010108\033[2J\007\342\200\256Ev\033]0;x')
advertise_raw 0 "$(ad_local_name "$evil")"
device=$(scan_expect_name '010108.\[2J')
[ "$(name_hex "$device")" = "$(hex_of "$evil")" ] ||
  fail "BlueZ changed the escapes: got $(name_hex "$device"), sent $(hex_of "$evil")"

# Valid UTF-8 up to 0xFF, then more.
advertise_raw 1 "$(ad_local_name "$(printf '010108Bad\377tail')")"
device=$(scan_expect_name '010108Bad')
[ "$(name_hex "$device")" = "$(hex_of '010108Bad tail')" ] ||
  fail "invalid UTF-8: BlueZ gave $(name_hex "$device") for 010108Bad<FF>tail"

# Hostile input over the air: advertisers made with raw `btmgmt
# add-adv` scan responses send names carrying ESC[2J, OSC 52 (a clipboard
# write), BEL, bidi overrides, C1 controls, invalid UTF-8 and the maximum
# length, an unknown card, a wrong version and non-hex fields. One session on
# hci0 is watched three ways: the table (on a terminal), the line output (a
# pipe) and --json. Checked on the raw bytes: the table and the lines hold no
# control byte, escape sequence, C1 control or bidi override (the table only
# its own CSI sequences, one clear at its start); every JSON line is valid
# JSON (jq) with the names as the table shows them (sanitised, not lost:
# `jq -r .name` writes nothing a terminal acts on); the bad packets show
# nowhere.
# The watches are --open: every card is drawn as it arrives (the host has no
# card, so the round would otherwise stay hidden).
# radios: 4
# timeout: 240
# not-on-bumble: the names are decoded and sanitised above BlueZ, whose scan responses carry them byte for byte from any controller

command -v jq >/dev/null || fail "jq is not installed (make e2e installs it)"
report_failure 20 json

estimator join --adapter hci0 --channel 1 --name Host >/dev/null || fail "join on hci0"
# Standard output alone: the note that --open is remembered goes to
# standard error, which --json leaves out of its lines.
bg_start json sh -c 'exec estimator watch --adapter hci0 --open --json 2>>"$0"' "$E2E_WORK/json.err"
bg_start lines estimator watch --adapter hci0 --open
bg_start table script -qfec "stty rows 50 cols 120; exec estimator watch --adapter hci0 --open" /dev/null
bg_expect lines '^radio: advertising and scanning' 10 >/dev/null

# name -> card byte (hex): every shown name has a card of its own, so the
# JSON lines are told apart by cardRaw.
esc=$'\033' bel=$'\007'
shown_names=(
  "010100${esc}[2JClr"                        # clear screen
  "01017F${esc}]52;c;aGk=${bel}Osc"           # OSC 52: write "hi" to the clipboard
  "010101Bel${bel}${bel}${bel}"               # bells
  $'010102\u202eBidi\u2066x'                  # right-to-left override, isolate
  $'010103Bad\xff\xfex'                       # invalid UTF-8 (BlueZ makes the bytes spaces)
  $'010105\xc2\x9b2JCsi'                      # C1 CSI, as UTF-8
  "010108MaxLen$(printf 'M%.0s' $(seq 17))"   # 29 bytes: all a scan response holds
  "010199Unknown"                             # a card that does not exist
)
shown_raw=(00 7F 01 02 03 05 08 99)
ignored_names=("040108Wrong" "01ZZ08NoHex" "0101G8NoHex" "01010")

# Advertises on hci1-3 in turn; re-adds every 3 s until REGEX shows in the
# JSON (an advertiser is heard when it starts while the session scans).
turn=0
advertise_until_seen() { # NAME REGEX
  local radio=$((turn % 3 + 1)) try
  turn=$((turn + 1))
  for try in 1 2 3 4 5; do
    advertise_raw "$radio" "$(ad_local_name "$1")"
    bg_await json "$2" 3 >/dev/null && return 0
  done
  fail "the session never showed $(printf '%s' "$1" | cat -v)"
}

# The bad packets first, each kept on the air a while (absence is checked at the end).
for name in "${ignored_names[@]}"; do
  radio=$((turn % 3 + 1)) turn=$((turn + 1))
  for _ in 1 2 3; do advertise_raw "$radio" "$(ad_local_name "$name")"; sleep 1; done
done
for i in "${!shown_names[@]}"; do
  advertise_until_seen "${shown_names[$i]}" "\"event\":\"joined\",\"channel\":1,.*\"cardRaw\":\"${shown_raw[$i]}\""
done
wait_until 10 grep -aq Unknown "$E2E_WORK/lines.out"
wait_until 10 grep -aq Unknown "$E2E_WORK/table.out"

# The checks must be able to fail: each pattern finds its byte in a sample.
controls='[\x00-\x09\x0b-\x1f\x7f]'          # C0 (but newline) and DEL
c1='\xc2[\x80-\x9f]'                          # U+0080-U+009F in UTF-8
bidi='\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c'
count() { LC_ALL=C grep -caP -- "$1" "$2" || true; }
printf 'a\033[2Jb\n\xc2\x9b\n\xe2\x80\xae\n' >"$E2E_WORK/sample"
[ "$(count "$controls" "$E2E_WORK/sample")" = 1 ] && [ "$(count "$c1" "$E2E_WORK/sample")" = 1 ] &&
  [ "$(count "$bidi" "$E2E_WORK/sample")" = 1 ] || fail "the byte checks miss their sample"

for out in json lines; do
  file=$E2E_WORK/$out.out
  for check in controls c1 bidi; do
    n=$(count "${!check}" "$file")
    [ "$n" = 0 ] || fail "$out output: $n lines hold $check: $(LC_ALL=C grep -aP -- "${!check}" "$file" | head -1 | od -An -c | head -3)"
  done
done
# The table's own sequences are CSI (cursor, erase, colours); nothing else may remain.
LC_ALL=C sed -E 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\r//g' "$E2E_WORK/table.out" >"$E2E_WORK/table.text"
for check in controls c1 bidi; do
  n=$(count "${!check}" "$E2E_WORK/table.text")
  [ "$n" = 0 ] || fail "table: $n lines hold $check: $(LC_ALL=C grep -aP -- "${!check}" "$E2E_WORK/table.text" | head -1 | od -An -c | head -3)"
done
clears=$(LC_ALL=C grep -o $'\033\\[2J' "$E2E_WORK/table.out" | wc -l)
[ "$clears" = 1 ] || fail "the table output clears the screen $clears times, not once (at its start)"

# JSON: every line parses; names are sanitised as the table's, not dropped.
name_of() { jq -r --arg raw "$1" 'select(.event == "joined" and .cardRaw == $raw) | .name' "$E2E_WORK/json.out" | head -1; }
[ "$(name_of 00)" = Clr ] || fail "JSON did not carry the ESC[2J name sanitised: $(grep -a '"cardRaw":"00"' "$E2E_WORK/json.out" | cat -v)"
grep -aqF '"name":"Osc"' "$E2E_WORK/json.out" || fail "JSON did not carry the OSC 52 name sanitised"
grep -aqF '"name":"Bidix"' "$E2E_WORK/json.out" || fail "JSON did not carry the bidi name sanitised"
! grep -aqiE '\\u00[01][0-9a-f]|\\u007f|\\u00[89][0-9a-f]|\\u202[a-e]|\\u206[6-9]|\\u202[89]' "$E2E_WORK/json.out" ||
  fail "a --json line carries a control, C1 or bidi character: $(grep -aiE '\\u00[01][0-9a-f]|\\u00[89][0-9a-f]|\\u202[a-e]' "$E2E_WORK/json.out" | head -2 | cat -v)"
grep -aqF '"name":"MaxLenMMMMMMMMMMMMMMMMM","card":"8"' "$E2E_WORK/json.out" || fail "the 29-byte packet's name was cut"
grep -aqF '"name":"Unknown","card":null,"cardRaw":"99"' "$E2E_WORK/json.out" || fail "the unknown card is not shown as unknown"
grep -aq 'channel 1 Unknown (app) joined' "$E2E_WORK/lines.out" || fail "the line output did not show the unknown card (an app-format packet: an app user)"

for word in Wrong NoHex; do
  for out in json lines table; do
    ! grep -aq "$word" "$E2E_WORK/$out.out" || fail "the $out output shows the bad packet $word"
  done
done

# A study, not in the suite (`make e2e` runs Tests/E2E/scenarios only):
# how often two teams of three joining the README's way at the same moment
# land in one room per team, with the neighbours close enough through the
# wall that the signal floor now and then finds one by a lucky run of
# readings (docs/MEASUREMENTS.md, Finding a room). Run it many times:
#
#   make e2e SCENARIOS=Tests/E2E/studies/neighbours-close.sh CONTROLLER=bumble REPEAT=40
#
# The floor plan of `neighbours` (Tests/Air's path-loss model, 5 dB of
# noise, a brick wall of 8 dB at x = 14 m), with the teams 18 m apart
# across it instead of 26: the nine pairs across read -94.6 to -95.5 dBm
# on the mean, against the room range's found level of -88.
# Figures (E2E-METRIC): split_teams, the teams not all in one room (0-2);
# merged, whether anyone shares a room with the other team (0-1).
# radios: 6
# timeout: 120
# air-places: 0=5,1 1=5,5 2=5,9 3=23,1 4=23,5 5=23,9
# air-walls: 14,0,14,10=8
# air-noise: 5
# not-on-btvirt: btvirt's radios all hear each other and report no signal strength; the floor plan needs Tests/Air's path-loss model

report_failure 30
names=(Ann Bob Cy Dee Eve Fay)
pids=()
for i in 0 1 2 3 4 5; do
  as $i join --adapter hci$i --name "${names[$i]}" >"$E2E_WORK/join$i.out" 2>&1 &
  pids+=($!)
done
for i in 0 1 2 3 4 5; do wait "${pids[$i]}" || fail "join on hci$i: $(cat "$E2E_WORK/join$i.out")"; done
room=()
for i in 0 1 2 3 4 5; do
  room[i]=$(sed -nE "s/.*joined room ([0-9]+) as ${names[$i]} on hci$i.*/\1/p" "$E2E_WORK/join$i.out" | head -1)
  [ -n "${room[i]}" ] || fail "join on hci$i said no room: $(cat "$E2E_WORK/join$i.out")"
done
echo "rooms: team A ${room[0]} ${room[1]} ${room[2]}, team B ${room[3]} ${room[4]} ${room[5]}"
split=0 merged=0
[ "${room[0]}" = "${room[1]}" ] && [ "${room[1]}" = "${room[2]}" ] || split=$((split + 1))
[ "${room[3]}" = "${room[4]}" ] && [ "${room[4]}" = "${room[5]}" ] || split=$((split + 1))
for a in 0 1 2; do for b in 3 4 5; do [ "${room[a]}" != "${room[b]}" ] || merged=1; done; done
metric merged "$merged"
metric split_teams "$split"
[ "$merged$split" = 00 ] || fail "the teams did not land in a room each: $(cat "$E2E_WORK"/join*.out)"
echo ok

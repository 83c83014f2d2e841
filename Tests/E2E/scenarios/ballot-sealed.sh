# ballot.sh on controllers with extended advertising (Tests/Air's default),
# where the sessions run the light mode and seal their votes on the air
# until the reveal (docs/PROTOCOL.md, Ballot). The same steps and bounds as
# ballot.sh, and the air record holds no voting session's card before its
# round's reveal. The five laptops share one bluetoothd here, whose one
# management queue carries every change of the reveal's two hops; the
# rooms rig times the same sealed reveal with a bluetoothd per laptop
# (rooms/room-watcher.sh, docs/ROOMS.md).
# radios: 5
# timeout: 300
# advertising: extended
# not-on-btvirt: btvirt's advertisers do not repeat, which the light mode needs (room-extended.sh; docs/MEASUREMENTS.md, Strict and light)

. "$(dirname "$0")/ballot.sh"

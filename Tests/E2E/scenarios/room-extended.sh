# room.sh on controllers with extended advertising (btvirt without -L, or Tests/Air's default), where
# the sessions run the light schedule (docs/ARCHITECTURE.md, Radio schedule):
# changes made while scanning, the advertisement left alone between changes.
# The same steps and limits as room.sh; its metrics say what the light
# schedule costs and saves (advertising starts and new addresses per steady
# minute, the deaf share) beside room's.
# radios: 3
# timeout: 300
# advertising: extended

. "$(dirname "$0")/room.sh"

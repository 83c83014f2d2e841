# room.sh on controllers with extended advertising (Tests/Air's default),
# where the sessions run the light schedule (docs/ARCHITECTURE.md, Radio
# schedule): changes made while scanning, the advertisement left alone
# between changes. The same steps and limits as room.sh; its metrics say what
# the light schedule costs and saves (advertising starts and new addresses
# per steady minute, the deaf share) beside room's.
# radios: 4
# timeout: 300
# advertising: extended
# not-on-btvirt: btvirt's advertisers do not repeat (it reports one only as a scan starts, and Linux drops such a report when it beats "Discovering"), so without announcements at restarts a steady peer turned stale in 1 of 6 runs even with look-again; real controllers, and Tests/Air's, repeat (docs/MEASUREMENTS.md, Strict and light)

. "$(dirname "$0")/room.sh"

# `make demo`: a room of scripted teammates on hci1-hci3 and `estimator
# watch` on hci0, shown live on the console. Run by guest.sh like a scenario,
# with its output on the console (a terminal) instead of kept for a report.
# radios: 4
# timeout: 120

fail "make demo needs the estimator CLI's join, pick and watch commands (issue 6), which are not built yet."

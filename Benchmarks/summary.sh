#!/bin/bash
# The table `make bench` ends with: every RATIO line of its log (and the
# absolute figures that have a target), with the targets of issue 8, the
# date and the machine, as Markdown for the README.
#
#   summary.sh BENCH_LOG
set -euo pipefail
log=$1

target() {
    case $1 in
        pick-vs-true | pick-cpu-vs-true) echo "≤ 3" ;;
        session-cpu-vs-bleak) echo "≤ 0.2" ;;
        session-rss-mib) echo "≤ 15" ;;
        table-redraw-us-per-frame) echo "≤ 1000" ;;
        *) echo "" ;;
    esac
}

machine=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
echo
echo "estimator benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), ${machine:-unknown CPU}, $(nproc) CPUs, $(uname -sr)"
echo
echo "| measure | value | target |"
echo "| --- | ---: | ---: |"
# "RATIO name x" and "name x (target …)" lines, in the order they ran.
sed -n -e 's/^RATIO \([a-z0-9-]*\) \([0-9.]*\)$/\1 \2/p' \
       -e 's/^\([a-z0-9-]*\) \([0-9.]*\) (target.*$/\1 \2/p' "$log" |
while read -r name value; do
    echo "| $name | $value | $(target "$name") |"
done

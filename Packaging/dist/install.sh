#!/bin/sh
# Installs estimator from this folder (`make dist`'s archive, unpacked): the
# binaries, man pages and shell completions under a prefix.
#
#   sudo ./install.sh                  into /usr/local
#   ./install.sh --prefix ~/.local     for you alone (put ~/.local/bin on PATH)
#   sudo ./install.sh --uninstall      removes what it installed
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=/usr/local
action=install

usage() { echo "usage: install.sh [--prefix DIR] [--uninstall]" >&2; exit 64; }
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --uninstall) action=uninstall; shift ;;
        -h|--help) sed -n '2,7s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "install.sh: '$1' is not an option; see install.sh --help." >&2; exit 64 ;;
    esac
done
case $prefix in
    /*) ;;
    *) echo "install.sh: the prefix must be an absolute path, not '$prefix'." >&2; exit 64 ;;
esac

# Every file of the archive but this script, relative to the folder.
files=$(cd "$here" && find bin share -type f | LC_ALL=C sort)

if [ "$action" = uninstall ]; then
    for file in $files; do rm -f "$prefix/$file"; done
    echo "removed estimator from $prefix"
    exit 0
fi

if ! mkdir -p "$prefix/bin" 2>/dev/null || [ ! -w "$prefix/bin" ]; then
    echo "install.sh: cannot write to $prefix/bin; run it with sudo, or choose another place with --prefix ~/.local." >&2
    exit 77
fi
for file in $files; do
    case $file in bin/*) mode=0755 ;; *) mode=0644 ;; esac
    install -D -m "$mode" "$here/$file" "$prefix/$file"
done
echo "installed estimator $("$prefix/bin/estimator" --version) in $prefix"

# What the binaries need from the system, said once, with the package.
if ! command -v bluetoothd >/dev/null 2>&1 && [ ! -x /usr/libexec/bluetooth/bluetoothd ] && [ ! -x /usr/lib/bluetooth/bluetoothd ]; then
    echo "note: estimator talks to bluetoothd, which is not installed: sudo apt install bluez"
fi
# The loader's own exit code when a shared library is missing.
status=0; "$prefix/bin/estimator-relay" --help >/dev/null 2>&1 || status=$?
if [ "$status" = 127 ]; then
    echo "note: estimator-relay (for remote teammates) needs libmosquitto: sudo apt install libmosquitto1"
fi
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on your PATH; add it, or run $prefix/bin/estimator" ;;
esac

#!/usr/bin/env bash
# `make dist`'s archive and the .deb where people install them (mk/dist.mk,
# run by .ci/run):
# - on this machine (Debian 12): the archive's install.sh into a scratch
#   prefix, estimator --version, estimator-relay, doctor (on a bus that is
#   not there) and man from there, then --uninstall leaves no file;
# - in a clean Debian 13 root made with debootstrap (a chroot): the archive
#   the same way (install.sh names the packages it lacks: bluez,
#   libmosquitto1), then the .deb through apt, which brings libmosquitto1;
#   each time estimator --version and estimator doctor, which has no system
#   bus there and says so, exit 69; estimator-relay starts from the .deb.
#
#   Tests/Scripts/dist-check.sh ARCHIVE DEB VERSION SUITE MIRROR ROOT
set -euo pipefail
archive=$(realpath "$1") deb=$(realpath "$2") version=$3 suite=$4 mirror=$5 root=$6
name=$(basename "$archive" .tar.gz)
fail() { echo "dist-check: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "run it as root: it makes a Debian root and chroots into it"

scratch=$(mktemp -d)
cleanup() {
    mountpoint -q "$root/proc" && umount "$root/proc"
    rm -rf "$scratch" "$root"
}
trap cleanup EXIT

# What every installation must do: say its version, and run doctor, whose
# first finding where there is no system bus is that, exit 69.
runs() {  # runs WHERE COMMAND-PREFIX...: the prefix is empty or a chroot
    local where=$1; shift
    [ "$("$@" estimator --version)" = "$version" ] || fail "$where: estimator --version says '$("$@" estimator --version 2>&1)'"
    local status=0
    "$@" estimator doctor >"$scratch/doctor" 2>&1 || status=$?
    [ "$status" = 69 ] || fail "$where: estimator doctor exits $status, not 69: $(cat "$scratch/doctor")"
    grep -q "^✘ system bus: not reachable" "$scratch/doctor" || fail "$where: estimator doctor says: $(cat "$scratch/doctor")"
}

# The relay starts where libmosquitto is: a missing shared library is the
# loader's exit 127.
relay_starts() {  # relay_starts WHERE COMMAND-PREFIX...
    local where=$1; shift
    local status=0
    "$@" estimator-relay --help >"$scratch/relay" 2>&1 || status=$?
    [ "$status" != 127 ] || fail "$where: estimator-relay does not start: $(head -n 3 "$scratch/relay")"
}

# This machine: the archive into a scratch prefix, then out again.
tar -xzf "$archive" -C "$scratch"
prefix=$scratch/prefix
"$scratch/$name/install.sh" --prefix "$prefix" >"$scratch/install" || fail "install.sh: $(cat "$scratch/install")"
grep -q "^installed estimator $version in $prefix$" "$scratch/install" || fail "install.sh says: $(cat "$scratch/install")"
runs "this machine, the archive" env PATH="$prefix/bin:$PATH" DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent
relay_starts "this machine, the archive" env PATH="$prefix/bin:$PATH"
MANPATH=$prefix/share/man man -w estimator.join >/dev/null || fail "man does not find estimator.join under $prefix/share/man"
"$scratch/$name/install.sh" --prefix "$prefix" --uninstall >/dev/null
left=$(find "$prefix" -type f)
[ -z "$left" ] || fail "install.sh --uninstall left: $left"

# A clean Debian 13 root: minbase, no bluez, no D-Bus.
rm -rf "$root"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$scratch/debootstrap" 2>&1 \
    || fail "debootstrap $suite: $(tail -n 5 "$scratch/debootstrap")"
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root=(chroot "$root" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8)
debian=$("${in_root[@]}" sh -c '. /etc/os-release; echo "$PRETTY_NAME"')

tar -xzf "$archive" -C "$root/tmp"
"${in_root[@]}" "/tmp/$name/install.sh" >"$scratch/install" || fail "install.sh in $debian: $(cat "$scratch/install")"
grep -q "libmosquitto1" "$scratch/install" || fail "install.sh in $debian does not say that the relay needs libmosquitto1: $(cat "$scratch/install")"
grep -q "sudo apt install bluez" "$scratch/install" || fail "install.sh in $debian does not say that bluez is missing: $(cat "$scratch/install")"
runs "$debian, the archive" "${in_root[@]}"
"${in_root[@]}" "/tmp/$name/install.sh" --uninstall >/dev/null
[ -z "$(find "$root/usr/local/bin" -type f)" ] || fail "$debian: install.sh --uninstall left files in /usr/local/bin"

cp "$deb" "$root/tmp/"
"${in_root[@]}" apt-get update -q >"$scratch/apt" 2>&1 || fail "apt-get update in $debian: $(tail -n 5 "$scratch/apt")"
"${in_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "/tmp/$(basename "$deb")" \
    >"$scratch/apt" 2>&1 || fail "apt-get install of the .deb in $debian: $(tail -n 5 "$scratch/apt")"
runs "$debian, the .deb" "${in_root[@]}"
relay_starts "$debian, the .deb" "${in_root[@]}"
echo "dist-check: $(basename "$archive") installs, runs and uninstalls on this machine and in $debian; the .deb installs there with its dependencies and runs"

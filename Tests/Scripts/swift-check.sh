#!/bin/bash
# `make swift-check`, which every building target runs first: without a Swift
# toolchain, or with one older than Package.swift reads, make stops with one
# sentence that says which Swift is needed and where it comes from.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

expect() {  # expect NAME SWIFT PATTERN: make fails and says PATTERN
    if make --no-print-directory -s swift-check SWIFT="$2" >"$dir/out" 2>&1; then
        echo "swift-check: $1: make succeeded"; exit 1
    fi
    grep -q -- "$3" "$dir/out" || { echo "swift-check: $1: said:"; cat "$dir/out"; exit 1; }
}

expect "no toolchain" "$dir/none" "needs Swift 6.1 or later, and '$dir/none' is not found: install a toolchain from https://www.swift.org/install/linux/"
printf '#!/bin/sh\necho "Swift version 5.10.1 (swift-5.10.1-RELEASE)"\n' >"$dir/old"
chmod +x "$dir/old"
expect "an old toolchain" "$dir/old" "needs Swift 6.1 or later, and '$dir/old' is Swift 5.10: install a newer toolchain"
make --no-print-directory -s swift-check
echo "swift-check: no toolchain and an old one refused with the fix; $(swift --version 2>/dev/null | head -n 1) accepted"

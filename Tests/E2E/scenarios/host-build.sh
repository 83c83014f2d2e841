# The guest runs the host's build unchanged: the estimator binary and the
# Swift runtime (linked in, or found over the 9p root) load and run.
# radios: 0
# timeout: 60
# not-on-bumble: no radios, nothing of the controller's to run

binary=$(command -v estimator) || fail "no estimator on the guest's PATH ($PATH)"
if ldd "$binary" | grep 'not found'; then
  fail "$binary misses libraries in the guest"
fi
estimator --help >"$E2E_WORK/help.out" || fail "estimator --help failed in the guest"
grep -qi 'planning poker' "$E2E_WORK/help.out" || fail "estimator --help printed no abstract"

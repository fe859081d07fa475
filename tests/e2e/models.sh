#!/bin/sh
# models.sh - model files end to end, through tests/cat-load-check:
#   models/NAME.cat                 must load; its name and checks must match
#                                   tests/e2e/models/NAME.checks
#   tests/e2e/models/bad-*.cat      must fail; the messages must match
#                                   bad-*.cat.expected-err exactly
#                                   (file:line:col: error: ...); inc-*.cat
#                                   there are only included by them
# PROMOTE=1 rewrites the expected files from the actual output.
set -u
srcdir=${top_srcdir:-.}
builddir=${top_builddir:-.}
check=$builddir/tests/cat-load-check
case $check in /*) ;; *) check=$(pwd)/$check ;; esac
dir=$srcdir/tests/e2e/models
tmp=${TMPDIR:-/tmp}/models.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

compare() {   # expected actual what
  if [ "${PROMOTE:-0}" = 1 ]; then cp "$2" "$1"; return 0; fi
  if ! diff -u "$1" "$2"; then echo "FAIL: $3"; fail=1; else echo "ok: $3"; fi
}

for m in "$srcdir"/models/*.cat; do
  name=$(basename "$m" .cat)
  "$check" "$m" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -ne 0 ]; then cat "$tmp/err"; echo "FAIL: $name does not load"; fail=1; continue; fi
  compare "$dir/$name.checks" "$tmp/out" "$name"
done

# Bad models run from their own folder so positions read bad-x.cat:L:C.
for m in "$dir"/bad-*.cat; do
  base=$(basename "$m")
  (cd "$dir" && "$check" "$base") > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -ne 2 ]; then echo "FAIL: $base: exit $rc, expected 2"; fail=1; continue; fi
  compare "$m.expected-err" "$tmp/err" "$base"
done
exit $fail

#!/bin/sh
# errors.sh - for each tests/e2e/errors/T.litmus, `litmus-check --print T.litmus`
# must exit 2 and write exactly T.litmus.expected-err on stderr (compared
# with diff -u).  PROMOTE=1 rewrites the expected files instead.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
check=$(cd "$top_builddir" && pwd)/src/litmus-check
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
cd "$top_srcdir/tests/e2e/errors" || exit 99

failed=0
n=0
for f in *.litmus; do
  n=$((n + 1))
  "$check" --print "$f" >"$tmp/out" 2>"$tmp/err"
  status=$?
  if [ "${PROMOTE:-0}" = 1 ]; then
    cp "$tmp/err" "$f.expected-err"
  fi
  if [ "$status" -ne 2 ]; then
    echo "FAIL: $f: exit status $status, expected 2"; failed=$((failed + 1))
  elif [ -s "$tmp/out" ]; then
    echo "FAIL: $f: printed something on stdout"; failed=$((failed + 1))
  elif ! diff -u "$f.expected-err" "$tmp/err"; then
    echo "FAIL: $f: stderr differs"; failed=$((failed + 1))
  fi
done
echo "error files: $((n - failed))/$n as expected"
[ "$failed" -eq 0 ] && [ "$n" -gt 0 ]

#!/bin/sh
# errors.sh - for each tests/e2e/errors/T.litmus, `litmus-check --print T.litmus`
# must exit 2 and write exactly T.litmus.expected-err on stderr (compared
# with diff -u).  PROMOTE=1 rewrites the expected files instead.
set -u
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$top_srcdir/tests/e2e/errors" || exit 99

n=0
for f in *.litmus; do
  n=$((n + 1))
  "$lc" --print "$f" >"$tmp/out" 2>"$tmp/err"
  status=$?
  [ "${PROMOTE:-0}" = 1 ] && cp "$tmp/err" "$f.expected-err"
  if [ "$status" -ne 2 ]; then
    bad "$f: exit status $status, expected 2"
  elif [ -s "$tmp/out" ]; then
    bad "$f: printed something on stdout"
  else
    check_whole "$f.expected-err" "$tmp/err" "$f"
  fi
done
[ "$n" -gt 0 ] || bad "no error files"
finish "error files"

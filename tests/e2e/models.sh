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
. "$(dirname "$0")/lib.sh"
check=$abs_top_builddir/tests/cat-load-check
dir=$top_srcdir/tests/e2e/models
make_tmp

for m in "$top_srcdir"/models/*.cat; do
  name=$(basename "$m" .cat)
  "$check" "$m" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -ne 0 ]; then cat "$tmp/err"; bad "$name does not load"; continue; fi
  check_whole "$dir/$name.checks" "$tmp/out" "$name"
done

# Bad models run from their own folder so positions read bad-x.cat:L:C.
for m in "$dir"/bad-*.cat; do
  base=$(basename "$m")
  (cd "$dir" && "$check" "$base") > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -ne 2 ]; then bad "$base: exit $rc, expected 2"; continue; fi
  check_whole "$m.expected-err" "$tmp/err" "$base"
done
finish models

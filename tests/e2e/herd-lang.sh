#!/bin/sh
# herd-lang.sh - the constructs of herd's (and Dartagnan's) cat read beyond
# litmus-check's own language, with no herd needed:
#   tests/e2e/herd-lang/herd-lang.cat   try ... with, {}, if "variant" in an
#       expression (with not), functions joined by and, generate_orders(S, R)
#       for a set S, assert (a flag), catdep, toid, LS/UL, coe/coi/fre/fri,
#       Dartagnan's syncbar and ALIAS; its checks against herd-lang.checks
#       and its whole output (both engines, Time lines left out) on SB
#       against SB.expected: sequential consistency, three outcomes, the
#       assertion on rf raised.
# PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/herd-lang"
make_tmp

"$abs_top_builddir/tests/cat-load-check" "$dir/herd-lang.cat" >"$tmp/out" 2>&1
check_whole "$dir/herd-lang.checks" "$tmp/out" "herd-lang.cat loads"

for e in enum smt; do
  "$lc" -e "$e" --model "$dir/herd-lang.cat" "$dir/SB.litmus" 2>&1 | grep -v '^Time ' >"$tmp/out"
  check_whole "$dir/SB.expected" "$tmp/out" "SB under herd-lang.cat, engine $e"
done
finish herd-lang

#!/bin/sh
# crosscheck.sh - the two engines agree (full outcome sets, flags, bound)
# on random tests, on the classic tests of litmus/, on the regression
# tests and on tests/e2e/engines/ (features random tests lack: shared
# memory, addresses in registers, atom inc/dec/min/max, bar.arrive,
# proxies, many fence.sc), under each shipped model for the hand-written
# ones.
# CROSSCHECK_COUNT (CROSSCHECK_CPP_COUNT for C++) and CROSSCHECK_SEED
# change the random batches.
set -u
. "$(dirname "$0")/lib.sh"
export top_builddir
cc=$top_srcdir/scripts/crosscheck
"$cc" "${CROSSCHECK_COUNT:-200}" "${CROSSCHECK_SEED:-20250101}" || fail=1
# CUDA C++: random tests and the classic C++ tests under cuda-cpp, with
# no-thin-air on and off
CROSSCHECK_FAMILY=random-cpp "$cc" "${CROSSCHECK_CPP_COUNT:-150}" "${CROSSCHECK_SEED:-20250101}" || fail=1
CROSSCHECK_FAMILY=random-cpp "$cc" 50 7 --set no-thin-air=off || fail=1
"$cc" --dir "$top_srcdir/litmus/cuda-cpp" --model cuda-cpp || fail=1
# Hopper synchronisation under ptx-v8, termination verdicts included
"$cc" --dir "$top_srcdir/litmus/hopper" --model ptx-v8 --termination || fail=1
"$cc" --dir "$top_srcdir/tests/e2e/hopper/engines" --model ptx-v8 --termination || fail=1
for model in ptx-v7.5 ptx-v6.0 sc; do
  "$cc" --dir "$top_srcdir/litmus" --model "$model" || fail=1
  "$cc" --dir "$top_srcdir/tests/e2e/regress" --model "$model" || fail=1
  "$cc" --dir "$top_srcdir/tests/e2e/engines" --model "$model" || fail=1
done
exit $fail

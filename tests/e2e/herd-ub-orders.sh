#!/bin/sh
# herd-ub-orders.sh - orders C and C++ leave undefined (a store acquire,
# consume or acq_rel; a load release or acq_rel; a compare-exchange
# failing with release or acq_rel), read as herd7 reads them: the order
# kept as the event's annotation, with one warning per occurrence
# (docs/cpp-model.md, "Orders C leaves undefined").
#   tests/e2e/herd-ub-orders/T.litmus   the test;
#   T.expected   its warnings and `--format herd` output under
#       herd-style.cat (RC11 in herd's cat, tests/e2e/herd-c11): the states
#       herd7 gives under herd's rc11.cat and c11_partialSC.cat;
#   T.cuda-cpp   the same under the bundled cuda-cpp.cat (the same states);
#   T.run-err    `litmus-run --emit-cuda T` refuses it (exit 2): no code
#       is compiled for an undefined order.
# With herd7 and herd's libdir (HERD7, HERDLIB), herd7's states under
# rc11.cat and c11_partialSC.cat must be those of T.expected.
set -u
. "$(dirname "$0")/lib.sh"
source_models
make_tmp
dir="$abs_top_srcdir/tests/e2e/herd-ub-orders"
cd "$dir" || exit 99

# the state lines of a --format herd output
states() { awk '/^States [0-9]+$/ { n = $2; next } n > 0 { print; n--; next }' "$1"; }

herd7=${HERD7:-/work/tools/bin/herd7}
herdlib=${HERDLIB:-/work/tools/herdtools7/share/herdtools7/herd}
[ -x "$herd7" ] && [ -f "$herdlib/rc11.cat" ] || { herd7=; echo "herd-ub-orders: no herd7 or herd libdir: herd7 not compared"; }

for t in *.litmus; do
  name=${t%.litmus}
  if [ -f "$name.expected" ]; then
    "$lc" --model ../herd-c11/herd-style.cat --format herd "$t" 2>&1 | grep -v '^Time \|^Hash=' >"$tmp/out"
    check_whole "$name.expected" "$tmp/out" "$name under herd-style.cat"
    if [ -n "$herd7" ]; then
      states "$tmp/out" >"$tmp/ours"
      for m in rc11.cat c11_partialSC.cat; do
        "$herd7" -set-libdir "$herdlib" -model $m "$t" >"$tmp/herd" 2>&1
        states "$tmp/herd" >"$tmp/theirs"
        if [ -s "$tmp/theirs" ] && cmp -s "$tmp/ours" "$tmp/theirs"; then ok "$name: herd7 -model $m gives the same states"
        else bad "$name: herd7 -model $m differs"; diff "$tmp/ours" "$tmp/theirs"; fi
      done
    fi
  fi
  "$lc" "$t" 2>&1 | grep -v '^Time ' >"$tmp/out"
  check_whole "$name.cuda-cpp" "$tmp/out" "$name under cuda-cpp.cat"
  check_run "$name: litmus-run --emit-cuda refuses" 2 "$name.run-err" "$lr" --emit-cuda "$t"
done
finish herd-ub-orders

#!/bin/sh
# show.sh - litmus-check --show: every allowed execution, or those giving a
# state, with rf, co, fr and the model's named relations; --show-limit,
# --show-rel, --json and --graph.  Whole outputs against tests/e2e/show/
# (`Time` lines and JSON timings dropped); PROMOTE=1 rewrites them.
set -u
. "$(dirname "$0")/lib.sh"
source_models
make_tmp
exp=$abs_top_srcdir/tests/e2e/show
filter() {
  grep -v '^Time ' | sed -e 's/"seconds":[0-9][0-9.e+-]*/"seconds":0/g' \
    -e 's/"\(lower\|encode\|flags\|states\)":[0-9][0-9.e+-]*/"\1":0/g' -e "s|$tmp|TMP|g"
}
cd "$abs_top_srcdir" || exit 99

check_run "MP: all" 0 "$exp/MP-all.out" "$lc" --show all litmus/MP.litmus
check_run "SB: all, cut at 2" 0 "$exp/SB-limit.out" "$lc" --show all --show-limit 2 litmus/SB.litmus
check_run "SB+fence.sc: two Fence-SC orders, one state" 0 "$exp/SB+fence.out" \
  "$lc" --show 'P0:r0=1; P1:r1=1;' litmus/SB+fence.sc-gpu.litmus
check_run "MP: one state" 0 "$exp/MP-state.out" "$lc" --show 'P1:r0=1; P1:r1=0;' litmus/MP.litmus
check_run "MP+rel-acq: a forbidden state" 0 "$exp/MP+rel-acq-none.out" \
  "$lc" --show 'P1:r0=1; P1:r1=0;' litmus/MP+rel-acq-gpu.litmus
check_run "MP+rel-acq: every relation" 0 "$exp/MP+rel-acq-all-rels.out" \
  "$lc" -q --show 'P1:r0=1;P1:r1=1' --show-rel all litmus/MP+rel-acq-gpu.litmus
check_run "MP+rel-acq: relations named" 0 "$exp/MP+rel-acq-rels.out" \
  "$lc" -q --show all --show-rel sw,cause litmus/MP+rel-acq-gpu.litmus
check_run "C++" 0 "$exp/cpp.out" "$lc" -q --show all litmus/cuda-cpp/MP+device-flag+diff-cta.litmus
check_run "SB: JSON" 0 "$exp/SB.json" "$lc" --json --show all --show-limit 1 litmus/SB.litmus
check_run "no executions shown" 0 "$exp/SB-zero.out" "$lc" -q --show all --show-limit 0 litmus/SB.litmus
check_run "bad state" 2 "$exp/bad-state.out" "$lc" -q --show 'P1:r9=1;' litmus/MP.litmus
check_run "bad relation" 2 "$exp/bad-rel.out" "$lc" -q --show all --show-rel cause,nosuch litmus/MP.litmus
check_run "bad limit" 2 "$exp/bad-limit.out" "$lc" --show all --show-limit -1 litmus/MP.litmus

# counting stops at 10,000: a store-buffering ring of 7 threads with
# fence.sc has 65,562 executions (each order of the fences counts)
"$lgen" --family sb --size 7 -o "$tmp/fam" || exit 99
check_run "counting capped" 0 "$exp/sb-7-capped.out" "$lc" -q --show all --show-limit 1 --show-rel cause "$tmp/fam/sb-7.litmus"

# --graph: one DOT file per execution shown, the named relations dotted
mkdir "$tmp/g"
"$lc" -q --show all --show-limit 3 --graph "$tmp/g/sb.dot" litmus/SB.litmus >/dev/null 2>&1
ls "$tmp/g" >"$tmp/files"
printf 'sb-1.dot\nsb-2.dot\nsb-3.dot\n' >"$tmp/want"
check_whole "$tmp/want" "$tmp/files" "--graph: a file per execution shown" keep
check_whole "$exp/sb-1.dot" "$tmp/g/sb-1.dot" "--graph: the first execution"

finish show

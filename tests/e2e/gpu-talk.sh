#!/bin/sh
# gpu-talk.sh - the experiments of the GPU weak-memory talks (litmus/gpu/):
# MP with volatile accesses, with __threadfence (fence.sc.gpu) and with
# membar.gl, four stores against four loads, CoRR on shared memory.  Their
# model verdicts, whole litmus-check outputs under ptx-v7.5 and ptx-v6.0,
# against tests/e2e/gpu/NAME.expected; then one short host run of each,
# which must show nothing the model forbids.  (On a GPU: scripts/gpu-validate.)
. "$(dirname "$0")/lib.sh"
source_models
cd "$top_srcdir" || exit 99
make_tmp
for exp in tests/e2e/gpu/*.expected; do
  name=$(basename "$exp" .expected)
  for model in ptx-v7.5 ptx-v6.0; do
    "$lc" --model "$model" "litmus/gpu/$name.litmus" 2>&1 | grep -v '^Time ' >"$tmp/out"
    check_whole "$exp" "$tmp/out" "litmus/gpu/$name.litmus ($model)"
  done
done
[ "$(ls litmus/gpu/*.litmus | wc -l)" -eq "$(ls tests/e2e/gpu/*.expected | wc -l)" ] ||
  bad "a test of litmus/gpu/ has no expected output"
"$lr" -q -b host -n 10 -i 500 -s 1 litmus/gpu/ >"$tmp/run" 2>&1
rc=$?
if [ $rc -eq 0 ]; then ok "host run of litmus/gpu/"; else cat "$tmp/run"; bad "host run of litmus/gpu/: exit $rc"; fi
finish gpu-talk

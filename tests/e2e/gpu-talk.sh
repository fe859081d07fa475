#!/bin/sh
# gpu-talk.sh - the experiments of the GPU weak-memory talks (litmus/gpu/):
# MP with volatile accesses, with __threadfence (fence.sc.gpu) and with
# membar.gl, four stores against four loads, CoRR on shared memory.  Their
# model verdicts, whole litmus-check outputs under ptx-v7.5 and ptx-v6.0,
# against tests/e2e/gpu/NAME.expected; then one short host run of each,
# which must show nothing the model forbids.  (On a GPU: scripts/gpu-validate.)
: "${top_srcdir:=.}" "${top_builddir:=.}"
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
lc=$(abs "$top_builddir/src/litmus-check")
run=$(abs "$top_builddir/src/litmus-run")
LITMUS_MODELS=${LITMUS_MODELS:-$(abs "$top_srcdir/models")}
export LITMUS_MODELS
cd "$top_srcdir" || exit 99
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpu-talk.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for exp in tests/e2e/gpu/*.expected; do
  name=$(basename "$exp" .expected)
  for model in ptx-v7.5 ptx-v6.0; do
    "$lc" --model "$model" "litmus/gpu/$name.litmus" 2>&1 | grep -v '^Time ' >"$tmp/out"
    if [ "${PROMOTE:-0}" = 1 ]; then cp "$tmp/out" "$exp"; fi
    if diff -u "$exp" "$tmp/out"; then n=$((n + 1)); else echo "FAIL: litmus/gpu/$name.litmus ($model)"; fail=1; fi
  done
done
[ "$(ls litmus/gpu/*.litmus | wc -l)" -eq "$(ls tests/e2e/gpu/*.expected | wc -l)" ] ||
  { echo "FAIL: a test of litmus/gpu/ has no expected output"; fail=1; }
"$run" -q -b host -n 10 -i 500 -s 1 litmus/gpu/ >"$tmp/run" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/run"; echo "FAIL: host run of litmus/gpu/: exit $rc"; fail=1; }
echo "gpu-talk: $n verdicts as expected; host run exit $rc"
exit $fail

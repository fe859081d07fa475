#!/bin/sh
# check-valgrind.sh - tests under valgrind: the unit tests given as
# arguments, then litmus-check --print on every classic test, seed, corpus
# test and error file, lt-roundtrip on every valid test, model checking
# with both engines, explanations and litmus-gen; the kernel reader's
# error files and shipped kernels.  Any memory error or leak fails
# (valgrind exits 99).  Run by `make check-valgrind`.
set -u
. "$(dirname "$0")/e2e/lib.sh"
: "${CORPUS_DIR:=}"
if ! command -v valgrind >/dev/null 2>&1; then
  echo "check-valgrind: valgrind is not installed (Debian package valgrind)" >&2
  exit 1
fi
vg="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible"
check=$lc
make_tmp
failed=0

# expect STATUS COMMAND...: runs COMMAND under valgrind, wants STATUS.
expect() {
  want=$1; shift
  $vg "$@" >/dev/null 2>"$tmp/vg"
  got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL (exit $got, expected $want): $*" | cut -c1-200
    grep -v '^  ' "$tmp/vg" | head -20
    failed=$((failed + 1))
  else
    echo "ok: $*" | cut -c1-100
  fi
}

for t in "$@"; do expect 0 "$top_builddir/$t"; done

valid="$top_srcdir/litmus/*.litmus $top_srcdir/tests/fuzz/seeds/*.litmus"
corpus=""
if [ -n "$CORPUS_DIR" ] && [ -d "$CORPUS_DIR/litmus" ]; then
  corpus=$(find "$CORPUS_DIR/litmus" -name '*.litmus' | LC_ALL=C sort)
else
  echo "corpus not found at ${CORPUS_DIR:-(CORPUS_DIR unset)}; checking without it"
fi
# shellcheck disable=SC2086
expect 0 "$check" --print $valid $corpus
# shellcheck disable=SC2086
expect 0 "$top_builddir/tests/lt-roundtrip" $valid $corpus
for f in "$top_srcdir"/tests/e2e/errors/*.litmus "$top_srcdir"/tests/fuzz/seeds/*.txt \
         "$top_srcdir"/tests/e2e/kernels/errors/*.cu; do
  expect 2 "$check" --print "$f"
done
# CUDA kernels as written: every shipped one printed, one checked with -D
expect 0 "$check" --print "$top_srcdir"/litmus/kernels/*.cu
expect 0 "$check" -D ACQ2RX "$top_srcdir/litmus/kernels/caslock-macros.cu"
# model checking with each engine: a plain test, races, barriers, loops,
# a test split among jobs, a timeout; and litmus-gen
for engine in smt enum; do
  expect 0 "$check" --engine $engine "$top_srcdir/litmus/MP.litmus" "$top_srcdir/litmus/MP+bar.sync.litmus" \
    "$top_srcdir/tests/e2e/races/MP+rel-cta-acq-gpu+ctrl.litmus" "$top_srcdir/tests/e2e/regress/loop-filter.litmus"
  expect 0 "$check" --engine $engine --model ptx-v6.0 "$top_srcdir/litmus/SB+fence.sc-gpu.litmus"
  expect 3 "$check" --engine $engine --timeout 0.000001 "$top_srcdir/tests/e2e/check-errors/iriw-6.litmus"
done
expect 0 "$check" --engine smt -j 2 --json "$top_srcdir/litmus/IRIW.litmus"
# the Hopper-era tests: termination under each engine (mbarrier phases,
# cluster and CTA barrier witnesses), the lints (which find mistakes:
# exit 1), and the sm_90 kernels, where the two CTA barriers that never
# complete are refused (exit 2)
hopper=$(ls "$top_srcdir"/litmus/hopper/*.litmus)
for engine in smt enum; do
  # shellcheck disable=SC2086
  expect 0 "$check" --engine $engine --termination --json $hopper
done
# shellcheck disable=SC2086
expect 1 "$check" --lint --json $hopper
# shellcheck disable=SC2086
expect 0 "$top_builddir/src/litmus-run" --emit-cuda $(echo "$hopper" | grep -v 'wrong-count\|different-ids')
expect 2 "$top_builddir/src/litmus-run" --emit-cuda "$top_srcdir/litmus/hopper/MP+bar.sync+wrong-count.litmus"
# explanations: both engines, races, pictures, the HTML report
for engine in smt enum; do
  expect 0 "$check" --engine $engine --explain --json "$top_srcdir/litmus/2+2W+fence.sc-gpu.litmus" \
    "$top_srcdir/litmus/LB+data.litmus" "$top_srcdir/litmus/MP.litmus"
done
html_out=$tmp/html
expect 0 "$check" --explain=race --graph "$html_out.dot" "$top_srcdir/litmus/MP.litmus"
expect 0 "$check" --html "$html_out" "$top_srcdir/litmus/MP+rel-acq-gpu.litmus" "$top_srcdir/litmus/CoRR.litmus"
rm -rf "$html_out" "$html_out"*.dot
gen_out=$tmp/gen
expect 0 "$top_builddir/src/litmus-gen" --seed 5 --count 20 --out "$gen_out"
expect 0 "$top_builddir/src/litmus-gen" --family iriw --size 1-3 --out "$gen_out"
expect 0 "$check" --no-races "$gen_out"
rm -rf "$gen_out"
# mapping tables: lowering, checking (a violation, a race), a bad table, litmus-gen --cpp
cpp=$top_srcdir/tests/map/cpp
expect 0 "$check" --lower ptx-abi "$cpp/CAS+acq.litmus"
expect 1 "$check" --check-mapping "$top_srcdir/mappings/broken/sc-load-no-fence.map" --json \
  "$cpp/SB+sc.litmus" "$cpp/MP+block-flag+diff-cta.litmus"
expect 2 "$check" --lower "$top_srcdir/tests/map/tables/cluster-sm80.map" --sm 80 "$cpp/MP+cluster.litmus"
expect 0 "$top_builddir/src/litmus-gen" --cpp --shapes RS+RMW -n 20 --out "$gen_out"
rm -rf "$gen_out"

[ "$failed" -eq 0 ] && echo "check-valgrind: all clean" || echo "check-valgrind: $failed failed"
[ "$failed" -eq 0 ]

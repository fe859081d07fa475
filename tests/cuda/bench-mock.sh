#!/bin/sh
# bench-mock.sh - scripts/bench-gpu end to end against the stand-in
# libcuda.so.1 (tests/cuda/mock): every classic test under both default
# settings lands in summary.tsv and stress-cost.tsv.  The numbers are the
# stand-in's, not a GPU's: only the script's plumbing is checked.
. "$(dirname "$0")/../e2e/lib.sh"
require_nvrtc
make_tmp
mock=$abs_top_builddir/tests/cuda/mock
LD_LIBRARY_PATH="$mock${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$top_srcdir/scripts/bench-gpu" \
  --litmus-run "$lr" --out "$tmp/b" --seconds 0.1 --corpus /nonexistent \
  >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "FAIL: bench-gpu exited $?"; exit 1; }
rows=$(awk -F'\t' 'NR > 1 && $7 == 0 && $5 > 0' "$tmp/b/summary.tsv" | wc -l)
costs=$(awk -F'\t' 'NR > 1' "$tmp/b/stress-cost.tsv" | wc -l)
settings=$(awk -F'\t' 'NR > 1 { print $1 }' "$tmp/b/summary.tsv" | sort -u | tr '\n' ' ')
if [ "$rows" -eq 10 ] && [ "$costs" -eq 10 ] && [ "$settings" = "default no-stress " ]; then
  echo "ok: bench-gpu (stand-in driver): 5 tests x 2 settings, stress cost per test"
else
  cat "$tmp/b/summary.tsv" "$tmp/b/stress-cost.tsv"
  echo "FAIL: bench-gpu summary: $rows rows, $costs costs, settings '$settings'"
  exit 1
fi

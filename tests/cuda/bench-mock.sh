#!/bin/sh
# bench-mock.sh - scripts/bench-gpu end to end against the stand-in
# libcuda.so.1 (tests/cuda/mock): every classic test under both default
# settings lands in summary.tsv and stress-cost.tsv.  The numbers are the
# stand-in's, not a GPU's: only the script's plumbing is checked.
: "${top_srcdir:=.}" "${top_builddir:=.}"
if ! LD_LIBRARY_PATH= ldconfig -p 2>/dev/null | grep -q libnvrtc && ! ls "${CUDA_DIR:-/nonexistent}"/lib64/libnvrtc.so* >/dev/null 2>&1; then
  echo "SKIP: NVRTC (libnvrtc.so) not found; the runner cannot compile without it"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-mock.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mock=$(cd "$top_builddir/tests/cuda/mock" && pwd)
LD_LIBRARY_PATH="$mock${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$top_srcdir/scripts/bench-gpu" \
  --litmus-run "$(cd "$top_builddir/src" && pwd)/litmus-run" --out "$tmp/b" --seconds 0.1 --corpus /nonexistent \
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

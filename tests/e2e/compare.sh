#!/bin/sh
# compare.sh - litmus-compare on stored results files: whole outputs.
# PROMOTE=1 rewrites the expected files.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
lcmp=$(cd "$top_builddir" && pwd)/src/litmus-compare
cd "$top_srcdir/tests/e2e/compare" || exit 99
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# run NAME WANT-STATUS ARGS...: stdout+stderr against NAME.expected
run() {
  name=$1 want=$2
  shift 2
  "$lcmp" "$@" >"$tmp/out" 2>&1
  got=$?
  [ "${PROMOTE:-0}" = 1 ] && cp "$tmp/out" "$name.expected"
  if [ "$got" != "$want" ]; then
    echo "FAIL: $name: exit status $got, expected $want"; fail=$((fail + 1))
  elif ! diff -u "$name.expected" "$tmp/out"; then
    echo "FAIL: $name"; fail=$((fail + 1))
  fi
}
run gpus-and-models 1 gpu-a.json gpu-b.json ptx-v7.5.json sc.json
run differences 0 --differences gpu-b.json ptx-v7.5.json sc.json
run agree 0 --differences gpu-b.json ptx-v7.5.json
run json 1 --json gpu-a.json sc.json
run malformed 2 gpu-a.json bad.json
run truncated 2 truncated.json
run missing 2 no-such.json
run none 2
# a campaign file: each test's counts summed over the grid points
run campaign 0 campaign.jsonl sc.json
# CSV, rates (text and CSV) and the SVG plots
run csv 0 --csv gpu-a.json gpu-b.json ptx-v7.5.json
run rates 0 --rates gpu-a.json gpu-b.json
run rates-csv 0 --rates --csv gpu-a.json gpu-b.json
run svg 1 --svg "$tmp/svg" gpu-a.json gpu-b.json sc.json
for plot in MP SB; do
  [ "${PROMOTE:-0}" = 1 ] && cp "$tmp/svg/$plot.svg" "svg-$plot.expected"
  diff -u "svg-$plot.expected" "$tmp/svg/$plot.svg" || { echo "FAIL: svg $plot"; fail=$((fail + 1)); }
done
[ "$fail" = 0 ] && echo "compare: all passed"
[ "$fail" = 0 ]

#!/bin/sh
# compare.sh - litmus-compare on stored results files: whole outputs.
# PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir/tests/e2e/compare" || exit 99
make_tmp
# run NAME WANT-STATUS ARGS...: stdout+stderr against NAME.expected
run() {
  name=$1 want=$2
  shift 2
  check_run "$name" "$want" "$name.expected" "$lcmp" "$@"
}
run gpus-and-models 1 gpu-a.json gpu-b.json ptx-v7.5.json sc.json
run differences 0 --differences gpu-b.json ptx-v7.5.json sc.json
run agree 0 --differences gpu-b.json ptx-v7.5.json
run json 1 --json gpu-a.json sc.json
run malformed 2 gpu-a.json bad.json
run truncated 2 truncated.json
run missing 2 no-such.json
run none 2
# a campaign file: a column per grid point, each with its own counts,
# verdict and number of tests (and rates)
run campaign 0 campaign.jsonl sc.json
run campaign-rates 0 --rates campaign.jsonl
run campaign-csv 0 --csv campaign.jsonl
# one test run twice in one file: the counts summed, and the verdict of
# the sums (the first run saw the condition, the last did not)
run merged 0 merged.jsonl
# CSV, rates (text and CSV) and the SVG plots
run csv 0 --csv gpu-a.json gpu-b.json ptx-v7.5.json
run rates 0 --rates gpu-a.json gpu-b.json
run rates-csv 0 --rates --csv gpu-a.json gpu-b.json
run svg 1 --svg "$tmp/svg" gpu-a.json gpu-b.json sc.json
for plot in MP SB; do
  check_whole "svg-$plot.expected" "$tmp/svg/$plot.svg" "svg $plot"
done
# two columns of one machine: the legend names the file and grid point,
# and the picture is as wide as the legend's lines
run svg-campaign 0 --svg "$tmp/svg-campaign" campaign.jsonl
check_whole "svg-campaign-SB.expected" "$tmp/svg-campaign/SB.svg" "svg campaign SB"
# a write error (a full disk) is not success: exit 3, said on stderr
if [ -w /dev/full ]; then
  "$lcmp" --differences gpu-b.json ptx-v7.5.json >/dev/full 2>"$tmp/err"
  rc=$?
  echo "litmus-compare: write error: No space left on device" >"$tmp/want"
  if [ $rc = 3 ] && cmp -s "$tmp/want" "$tmp/err"; then ok "stdout on a full disk: exit 3"
  else bad "stdout on a full disk: exit $rc"; cat "$tmp/err"; fi
fi
finish compare

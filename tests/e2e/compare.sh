#!/bin/sh
# compare.sh - litmus-compare on stored results files: whole outputs.
# PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir/tests/e2e/compare" || exit 99
make_tmp
# results files written here are named without their folder
filter() { sed "s|$tmp/||g"; }
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
# no hardware column: no empty rates table, a warning
run rates-models-only 0 --rates sc.json
run svg 1 --svg "$tmp/svg" gpu-a.json gpu-b.json sc.json
for plot in MP SB; do
  check_whole "svg-$plot.expected" "$tmp/svg/$plot.svg" "svg $plot"
done
# a test one file lacks: its plot's legend names only the files that ran
# it (each in its colour of every plot), and the model's column is a row
grep '"MP"' gpu-b.json >"$tmp/mp-only.json"
run svg-partial 1 --svg "$tmp/svg-partial" gpu-a.json "$tmp/mp-only.json" sc.json
check_whole "svg-partial-SB.expected" "$tmp/svg-partial/SB.svg" "svg: the legend of a test one file lacks"
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
# instances that hung or were cut are in no outcome: a row says how many
# (a test whose every instance hung showed an empty table)
run hung 0 hung.json
# a test or a model given for a results file: said so
run litmus-given 2 folders/a/MP.litmus
run cat-given 2 ../../../models/sc.cat
# --rates: long test names keep the numbers in line
sed 's|litmus/SB.litmus|litmus/SB+a-name-longer-than-the-thirty-two-columns.litmus|' gpu-a.json >"$tmp/long.json"
run rates-long-name 0 --rates "$tmp/long.json"
# tests are matched by path: two folders each with an MP.litmus (same
# name and condition, different programs) are two rows, in one file and
# across files; the same tests read from another folder meet themselves
source_models
"$lc" --json folders/ >"$tmp/folders.json" 2>/dev/null
(cd folders && "$lc" --json a/MP.litmus b/MP.litmus) >"$tmp/again.json" 2>/dev/null
run same-file-name 0 "$tmp/folders.json"
run same-file-name-two-files 0 "$tmp/folders.json" "$tmp/again.json"
# one MP.litmus per file (same name and condition, different programs):
# by the tail of its path (the default) the two meet, as one test checked
# from two places does, and differ; by the whole path (--match path) they
# stay apart and the files share no test; --root takes a folder off the
# paths, so that a corpus checked from two places meets itself by path
# (and two roots make the two MP.litmus one); --match name merges by the
# name alone, as herd's mcompare7 does, here the two tests of one file
"$lc" --json folders/a/MP.litmus >"$tmp/a.json" 2>/dev/null
"$lc" --json folders/b/MP.litmus >"$tmp/b.json" 2>/dev/null
(cd folders && "$lc" --json a/MP.litmus) >"$tmp/a-again.json" 2>/dev/null
run match-tail 0 "$tmp/a.json" "$tmp/b.json"
run match-path 2 --match path "$tmp/a.json" "$tmp/b.json"
run match-root 0 --root folders "$tmp/a.json" "$tmp/a-again.json"
run match-root-path 2 --match path "$tmp/a.json" "$tmp/a-again.json"
run match-two-roots 0 --root folders/a --root ./folders/b/ "$tmp/a.json" "$tmp/b.json"
run match-name 0 --match name "$tmp/folders.json"
run match-bad 2 --match herd "$tmp/a.json"
run match-root-name 2 --root folders --match name "$tmp/a.json"
# a run with --model ptx-v6.0 against the default: the C++ tests are
# under cuda-cpp in both (no dialect taken for a model difference), and
# each column names its models
"$lc" --json "$abs_top_srcdir/litmus/cuda-cpp/MP+rlx.litmus" "$abs_top_srcdir/litmus/MP.litmus" >"$tmp/default.json" 2>/dev/null
"$lc" --json --model ptx-v6.0 "$abs_top_srcdir/litmus/cuda-cpp/MP+rlx.litmus" "$abs_top_srcdir/litmus/MP.litmus" \
  >"$tmp/v6.json" 2>/dev/null
run model-per-dialect 0 "$tmp/default.json" "$tmp/v6.json"
# a results file with a test litmus-check could not answer: that test is
# left out with a warning, the others compared (the file was refused)
"$lc" --json folders/a/MP.litmus ../newuser/missing-semi.litmus >"$tmp/witherr.json" 2>/dev/null
run with-error 0 "$tmp/witherr.json" "$tmp/witherr.json"
# the shipped tree compared with itself: one row per test
"$lc" --json "$abs_top_srcdir/litmus/" >"$tmp/tree.json" 2>/dev/null
# kernels are tests too, but those only the compiler route reads
# (litmus/kernels/nvcc/, litmus-check --via nvcc) have no source-level
# answer, save those the source-level reader reads too
want=$(find "$abs_top_srcdir/litmus" -name '*.litmus' -o -name '*.cu' -not -path '*/kernels/nvcc/*' | wc -l)
for f in "$abs_top_srcdir"/litmus/kernels/nvcc/*.cu; do
  "$lc" "$f" >/dev/null 2>&1 && want=$((want + 1))
done
got=$("$lcmp" "$tmp/tree.json" "$tmp/tree.json" | sed -n 's/^\([0-9]*\) tests, .*/\1/p')
if [ "$got" = "$want" ]; then ok "the shipped tree with itself: $got tests, $got rows"
else bad "the shipped tree with itself: $want tests, ${got:-no} rows"; fi
finish compare

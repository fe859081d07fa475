#!/bin/sh
# gpu-ptx.sh - herd's legacy GPU_PTX dialect (`.reg` declarations in the
# init block, a scopeTree placing the threads) read as PTX: the tests of
# tests/e2e/gpu-ptx/ are checked and printed, compared whole; a malformed
# scope tree is one error at its line.  When a herdtools7 git directory is
# at hand (HERDTOOLS7_GIT), the nine GPU_PTX tests it had until 2021
# (catalogue/ptx/tests and catalogue/demo/tests, before commit 5d950b79b)
# are read unchanged and each gets the observation herd7 of that era gave
# with its ptx.cat (derived below).
set -u
. "$(dirname "$0")/lib.sh"
source_models
make_tmp
dir=$abs_top_srcdir/tests/e2e/gpu-ptx
filter() { sed "s|$dir/||g; /^Time /d"; }

for t in MP+membar.cta+same-cta SB+membar.sys+two-devices; do
  check_run "$t" 0 "$dir/$t.out" "$lc" "$dir/$t.litmus"
  check_run "$t --print" 0 "$dir/$t.print" "$lc" --print "$dir/$t.litmus"
  "$lc" --print "$dir/$t.litmus" >"$tmp/p.litmus" 2>/dev/null
  round_trips "$tmp/p.litmus"
done
check_run "bad scope tree" 2 "$dir/bad-tree.err" "$lc" "$dir/bad-tree.litmus"

# The verdicts herd7 gave them with the catalogue's ptx.cat (Alglave et
# al., ASPLOS 2015; herd7 of today no longer reads GPU_PTX), derived from
# that model: its per-location axiom leaves out read-read pairs (coRR is
# allowed), and order between threads comes only from a fence whose scope
# holds both threads (membar.cta orders nothing between two CTAs,
# membar.gl orders within the device).  Only the MP tests with membar.gl
# are forbidden.
era_verdict() {
  case "$1" in
    */mp+membar.gls.litmus|*/mp-ptx+membar.gls.litmus) echo Never ;;
    *) echo Sometimes ;;
  esac
}

git_dir=${HERDTOOLS7_GIT:-/work/.mirror/herd+herdtools7/repo}
if git --git-dir="$git_dir" rev-parse -q --verify 5d950b79b^ >/dev/null 2>&1; then
  n=0
  for f in $(git --git-dir="$git_dir" grep -l '^GPU_PTX' 5d950b79b^ -- catalogue | sed 's/^[^:]*://'); do
    git --git-dir="$git_dir" show "5d950b79b^:$f" >"$tmp/h.litmus"
    obs=$("$lc" "$tmp/h.litmus" 2>&1 | sed -n 's/^Observation [^ ]* \([A-Za-z]*\) .*/\1/p')
    want=$(era_verdict "$f")
    if [ "$obs" = "$want" ]; then ok "$f: $obs, as herd7 with ptx.cat"
    else bad "$f: '$obs', herd7 with its ptx.cat: $want ($("$lc" "$tmp/h.litmus" 2>&1 | head -1))"; fi
    n=$((n + 1))
  done
  if [ "$n" = 9 ]; then ok "nine historical GPU_PTX tests"; else bad "$n historical GPU_PTX tests, expected 9"; fi
else
  echo "no herdtools7 git directory (HERDTOOLS7_GIT): the historical tests are not read"
fi

finish gpu-ptx

#!/bin/sh
# exhaustive.sh - --check-mapping --exhaustive: a search at a tiny bound
# (whole output, times dropped), the number of programs the default bound
# holds, the bound's errors, and the minimal counterexamples the default
# search finds (tests/map/exhaustive/), each re-checked on its own.  The
# default search itself is a benchmark (scripts/bench-exhaustive), not a
# test.  PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/../e2e/lib.sh"
cd "$top_srcdir" || exit 99
make_tmp
exp=tests/map/expected
ex=tests/map/exhaustive
# the summary's times and rates change from run to run
filter() { sed -e 's/; [0-9.]* s, [0-9.]* CPU s, [0-9.]* programs\/s, -j [0-9]*/; TIME/'; }
run() {
  name=$1 want=$2
  shift 2
  check_run "$name" "$want" "$exp/$name.expected" "$lc" "$@"
}
run exhaustive-tiny 1 --check-mapping ptx-abi --exhaustive --bound threads=2,strong=1,rmws=0
run exhaustive-tiny-j2 1 --check-mapping ptx-abi --exhaustive --bound threads=2,strong=1,rmws=0 -j 2
compare_whole "$exp/exhaustive-tiny.expected" "$exp/exhaustive-tiny-j2.expected" keep >/dev/null &&
  ok "exhaustive: -j 2 finds what -j 1 does" || bad "exhaustive: -j 2 differs from -j 1"
# --shard K/N checks every N-th program; --merge reports the shards as one
# run does (scripts/slurm-exhaustive; tests/e2e/slurm-exhaustive.sh runs
# it through Slurm)
tiny="--check-mapping ptx-abi --exhaustive --bound threads=2,strong=1,rmws=0"
for k in 0 1 2 3; do "$lc" $tiny --shard $k/4 >"$tmp/s$k.jsonl" 2>/dev/null || bad "exhaustive: shard $k/4 failed"; done
run exhaustive-tiny-merged 1 $tiny --merge "$tmp/s2.jsonl" "$tmp/s0.jsonl" "$tmp/s3.jsonl" "$tmp/s1.jsonl"
compare_whole "$exp/exhaustive-tiny.expected" "$exp/exhaustive-tiny-merged.expected" keep >/dev/null &&
  ok "exhaustive: the merge of 4 shards is the unsharded run" || bad "exhaustive: the merge of 4 shards differs"
"$lc" --check-mapping ptx-abi --exhaustive --bound threads=2,strong=1,rmws=1 --shard 0/4 >"$tmp/other.jsonl" 2>/dev/null
filter() { sed -e 's/; [0-9.]* s, [0-9.]* CPU s, [0-9.]* programs\/s, -j [0-9]*/; TIME/' -e "s|$tmp/||g"; }
run exhaustive-merge-other 2 $tiny --merge "$tmp/s0.jsonl" "$tmp/other.jsonl"
run exhaustive-merge-twice 2 $tiny --merge "$tmp/s0.jsonl" "$tmp/s0.jsonl"
run exhaustive-merge-missing 2 $tiny --merge "$tmp/s0.jsonl" "$tmp/s1.jsonl" "$tmp/s3.jsonl"
run exhaustive-shard-bad 2 $tiny --shard 4/4
run exhaustive-shard-merge 2 $tiny --shard 0/4 --merge "$tmp/s0.jsonl"
run exhaustive-sound 0 --check-mapping ptx-abi --exhaustive --bound threads=2,locs=1,strong=1,rmws=1
for t in ptx-abi ptx-abi-cuda12 asplos19 nvvm nvvm-gated; do
  run exhaustive-count-$t 0 --check-mapping $t --exhaustive --count-only
done
run exhaustive-bad-bound 2 --check-mapping ptx-abi --exhaustive --bound threads=9
run exhaustive-bad-name 2 --check-mapping ptx-abi --exhaustive --bound thread=2
run exhaustive-files 2 --check-mapping ptx-abi --exhaustive $ex/LB.litmus
run exhaustive-nvcc 2 --check-mapping nvcc --exhaustive
# The minimal counterexamples, each reported by the check of one file.
for f in $ex/*.litmus; do
  b=$(basename "$f" .litmus)
  run "exhaustive-cex-$b" 1 --check-mapping ptx-abi "$f"
done
finish exhaustive

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

#!/bin/sh
# diff-isolate.sh - litmus-check --diff-models checks each test in a
# process of its own, as the check does (src/base/isolate.c): a test whose
# engine does not poll the deadline is killed at --timeout and costs only
# itself.  Z3 takes over 30 s to take in the encoding of
# timeout/spin-1-220.litmus (hard-timeout.sh), so under --engine smt
# --timeout 1 a run that ends within 4 s, saying the test is unknown "out
# of time" and still finding Alias-LB (on which ptx-v6.0 and ptx-v7.5
# differ), was not held up by it, with one job or two.  The whole output
# against diff-isolate/*.expected (Time dropped).  PROMOTE=1 rewrites them.
set -u
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$abs_top_srcdir" || exit 99
slow=tests/e2e/timeout/spin-1-220.litmus alias=tests/e2e/diff-models/tests/Alias-LB.litmus
for jobs in 1 2; do
  timed j$jobs "$lc" --diff-models ptx-v6.0 ptx-v7.5 --engine smt --timeout 1 -j $jobs "$slow" "$alias"
  exit_was 1 "-j $jobs: a difference found beside the test out of time"
  within 4 "-j $jobs: the test out of time is killed"
  sed -e "s/^Time .*/Time TIME/" -e "s|, [^ ]*/models/|, models/|" "$tmp/j$jobs.out" >"$tmp/j$jobs.txt"
  check_whole tests/e2e/diff-isolate/timeout.expected "$tmp/j$jobs.txt" "-j $jobs: the report"
done
# --max-memory bounds each test's process: a test past it is unknown,
# "out of memory", and the others go on
timed mem "$lc" --diff-models ptx-v6.0 ptx-v7.5 --engine smt --max-memory 64M "$alias" "$slow"
if grep -q "^Unknown spin-1-220 ($slow): out of memory (--max-memory 64M)" "$tmp/mem.out" &&
   grep -q "^Differ Alias-LB" "$tmp/mem.out"; then
  ok "--max-memory 64M: the test past it is out of memory, the other differs"
else
  bad "--max-memory 64M: $(cat "$tmp/mem.out" "$tmp/mem.err" | tr '\n' ' ')"
fi
finish diff-isolate

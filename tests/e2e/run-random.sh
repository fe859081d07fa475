#!/bin/sh
# run-random.sh - 100 random tests of litmus-gen on the host backend, all
# in one litmus-run: none may show an outcome the PTX v7.5 model forbids
# (exit 1) or fail.  Random tests mix sems, scopes, fences, RMWs, branches
# and filters in ways the corpus does not, so they check the host
# backend's code and the comparison beyond the corpus.
set -u
. "$(dirname "$0")/lib.sh"
source_models
run=$lr
make_tmp

"$lgen" --seed 20261122 --count 100 --out "$tmp/tests" || exit 99
"$run" --backend host --iterations 2 --instances 500 "$tmp/tests" > "$tmp/out" 2> "$tmp/err"
rc=$?
ran=$(grep -c '^Instances' "$tmp/out")
echo "random: $ran of 100 tests ran on the host backend, exit $rc"
if [ $rc -ne 0 ] || [ "$ran" -ne 100 ]; then
  grep '^!!!' "$tmp/out"
  grep -v 'warning:' "$tmp/err" | head -20
  exit 1
fi

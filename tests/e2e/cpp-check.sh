#!/bin/sh
# cpp-check.sh - the C++ classic tests (litmus/cuda-cpp) under cuda-cpp: the
# whole output of each, under both engines, against tests/e2e/cpp/NAME.expected
# (the engines must agree state for state, flag for flag); LB+rlx also with
# --set no-thin-air=off, MP+release-sequence with --set release-sequence=c20,
# MP+volatile with --set volatile=iso;
# one race in JSON; tests/e2e/cpp/*.litmus; --events of unsequenced
# operands; round trips of all of them.  `Time` lines are dropped.
# PROMOTE=1 rewrites the expected files from the SMT engine's output.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/cpp"
make_tmp

# compare EXPECTED ACTUAL WHAT ENGINE: the SMT engine's output is the one promoted
compare() {
  if [ "$4" = smt ]; then check_whole "$1" "$2" "$3"; else check_whole "$1" "$2" "$3" keep; fi
}

run() {   # EXPECTED ENGINE ARGS...
  exp=$1 engine=$2
  shift 2
  (cd "$top_srcdir" && "$lc" --model cuda-cpp --engine "$engine" "$@" 2>&1) | grep -v '^Time ' >"$tmp/out"
  compare "$exp" "$tmp/out" "$* (--engine $engine)" "$engine"
}

for t in "$top_srcdir"/litmus/cuda-cpp/*.litmus; do
  name=$(basename "$t" .litmus)
  for engine in smt enum; do run "$dir/$name.expected" $engine "litmus/cuda-cpp/$name.litmus"; done
done
for engine in smt enum; do
  run "$dir/LB+rlx.nta-off.expected" $engine --set no-thin-air=off litmus/cuda-cpp/LB+rlx.litmus
  run "$dir/MP+release-sequence.c20.expected" $engine --set release-sequence=c20 \
    litmus/cuda-cpp/MP+release-sequence.litmus
  run "$dir/MP+volatile.iso.expected" $engine --set volatile=iso litmus/cuda-cpp/MP+volatile.litmus
  (cd "$top_srcdir" && "$lc" --model cuda-cpp --engine $engine --json litmus/cuda-cpp/MP+block-flag+diff-cta.litmus 2>&1) |
    sed -e 's/"seconds":[0-9][0-9.e+-]*/"seconds":0/' -e 's/"\(lower\|encode\|flags\|states\)":[0-9][0-9.e+-]*/"\1":0/g' \
        -e 's/"solver_checks":[0-9]*/"solver_checks":0/' -e 's/"engine":"[a-z]*"/"engine":"E"/' >"$tmp/out"
  compare "$dir/MP+block-flag+diff-cta.json.expected" "$tmp/out" "MP+block-flag+diff-cta --json (--engine $engine)" $engine
done
# tests/e2e/cpp/NAME.litmus: the dialect's less common forms (typed inits,
# arrays, clusters, locations, filter, forall, negative constants), with
# NAME.litmus.expected
for t in "$dir"/*.litmus; do
  for engine in smt enum; do
    (cd "$dir" && "$lc" --model cuda-cpp --engine "$engine" "$(basename "$t")" 2>&1) | grep -v '^Time ' >"$tmp/out"
    compare "$t.expected" "$tmp/out" "$(basename "$t") (--engine $engine)" "$engine"
  done
done

# --events writes after an event the earlier ones po leaves unordered
# with it: a failed compare-exchange's write-back of *y and the other
# operand's read of *y (docs/litmus-format.md, "Evaluation order")
(cd "$top_srcdir" && "$lc" --events tests/e2e/herd-c11/CAS+unseq-na.litmus 2>&1) >"$tmp/out"
check_whole "$dir/CAS+unseq-na.events.expected" "$tmp/out" "CAS+unseq-na --events"

# every C++ test here round-trips through --print to an equal AST
for t in "$top_srcdir"/litmus/cuda-cpp/*.litmus "$dir"/*.litmus; do round_trips "$t"; done
finish cpp-check

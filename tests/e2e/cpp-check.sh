#!/bin/sh
# cpp-check.sh - the C++ classic tests (litmus/cuda-cpp) under cuda-cpp: the
# whole output of each, under both engines, against tests/e2e/cpp/NAME.expected
# (the engines must agree state for state, flag for flag); LB+rlx also with
# --set no-thin-air=off, MP+release-sequence with --set release-sequence=c20;
# one race in JSON; tests/e2e/cpp/*.litmus; round trips of all of them.  `Time` lines are dropped.
# PROMOTE=1 rewrites the expected files from the SMT engine's output.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
lc=$(cd "$top_builddir" && pwd)/src/litmus-check
dir="$top_srcdir/tests/e2e/cpp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

compare() {
  if [ "${PROMOTE:-0}" = 1 ] && [ "$4" = smt ]; then cp "$2" "$1"; fi
  if diff -u "$1" "$2" >"$tmp/diff"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $3"
    cat "$tmp/diff"
  fi
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
  (cd "$top_srcdir" && "$lc" --model cuda-cpp --engine $engine --json litmus/cuda-cpp/MP+block-flag+diff-cta.litmus 2>&1) |
    sed -e 's/"seconds":[0-9][0-9.e+-]*/"seconds":0/' -e 's/"\(lower\|encode\|flags\|states\)":[0-9][0-9.e+-]*/"\1":0/g' \
        -e 's/"solver_checks":[0-9]*/"solver_checks":0/' -e 's/"engine":"[a-z]*"/"engine":"E"/' >"$tmp/out"
  compare "$dir/MP+block-flag+diff-cta.json.expected" "$tmp/out" "MP+block-flag+diff-cta --json (--engine $engine)" $engine
done
# tests/e2e/cpp/NAME.litmus: the dialect's less common forms (typed inits,
# arrays, clusters, locations, filter, forall), with NAME.litmus.expected
for t in "$dir"/*.litmus; do
  for engine in smt enum; do
    (cd "$dir" && "$lc" --model cuda-cpp --engine "$engine" "$(basename "$t")" 2>&1) | grep -v '^Time ' >"$tmp/out"
    compare "$t.expected" "$tmp/out" "$(basename "$t") (--engine $engine)" "$engine"
  done
done

# every C++ test here round-trips through --print to an equal AST
roundtrip=$(cd "$top_builddir" && pwd)/tests/lt-roundtrip
for t in "$top_srcdir"/litmus/cuda-cpp/*.litmus "$dir"/*.litmus; do
  if "$lc" --print "$t" >"$tmp/first" 2>"$tmp/err" && "$lc" --print - <"$tmp/first" >"$tmp/second" 2>>"$tmp/err" &&
     cmp -s "$tmp/first" "$tmp/second" && "$roundtrip" "$t" 2>>"$tmp/err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL: $t does not round-trip"; cat "$tmp/err"
  fi
done
echo "cpp-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

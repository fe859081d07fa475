#!/bin/sh
# check.sh - litmus-check end to end: whole outputs against stored files.
#
#   classic/NAME.expected   litmus/NAME.litmus under ptx-v7.5 and ptx-v6.0
#                           (generic, alias-free tests mean the same in both)
#   races/NAME.litmus       with NAME.litmus.expected
#   alias/NAME.litmus       with NAME.litmus.expected
#   termination/NAME.litmus.expected  --termination of termination/NAME.litmus
#                           and litmus/spin/SL-cas+*.litmus, the same from both engines
#                           (termination/corpus/: of the corpus' tests, when there)
#   check-errors/cases      one case a line: NAME|STATUS|ARGS, the stderr in
#                           NAME.expected-err
# `Time` lines are dropped.  PROMOTE=1 rewrites the expected files from the
# current output (review the diff before committing it).
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e"
make_tmp

for exp in "$dir"/classic/*.expected; do
  name=$(basename "$exp" .expected)
  for model in ptx-v7.5 ptx-v6.0; do
    (cd "$top_srcdir" && "$lc" --model "$model" "litmus/$name.litmus" 2>/dev/null) |
      grep -v '^Time ' >"$tmp/out"
    check_whole "$exp" "$tmp/out" "litmus/$name.litmus ($model)"
  done
done

# several tests on several workers print in the order given, blank-line separated
(cd "$top_srcdir" && "$lc" -j 3 litmus/MP.litmus litmus/SB.litmus litmus/IRIW.litmus litmus/CoRR.litmus 2>/dev/null) |
  grep -v '^Time ' >"$tmp/out"
for name in MP SB IRIW CoRR; do
  cat "$dir/classic/$name.expected"
  [ "$name" = CoRR ] || echo
done >"$tmp/want"
check_whole "$tmp/want" "$tmp/out" "--jobs 3 output order" keep

# --print of several tests: each in normal form, a blank line between two
(cd "$top_srcdir" && "$lc" --print litmus/MP.litmus litmus/SB.litmus 2>/dev/null) >"$tmp/out"
{ (cd "$top_srcdir" && "$lc" --print litmus/MP.litmus); echo; (cd "$top_srcdir" && "$lc" --print litmus/SB.litmus); } >"$tmp/want"
check_whole "$tmp/want" "$tmp/out" "--print of two tests" keep

# the man page's OUTPUT example is what litmus/MP.litmus gives
sed -n '/^Test MP Allowed$/,/^Observation MP /p' "$top_srcdir/man/litmus-check.1" | sed 's/\\e/\\/g' >"$tmp/want"
(cd "$top_srcdir" && "$lc" litmus/MP.litmus 2>/dev/null) | grep -v '^Time ' >"$tmp/out"
check_whole "$tmp/want" "$tmp/out" "man/litmus-check.1 OUTPUT example" keep

# one test split among jobs (the SMT engine) lists the same states
for name in IRIW ISA2+rel-acq-gpu RMW-atomicity+cas; do
  (cd "$top_srcdir" && "$lc" --engine smt -j 3 "litmus/$name.litmus" 2>/dev/null) | grep -v '^Time ' >"$tmp/out"
  check_whole "$dir/classic/$name.expected" "$tmp/out" "litmus/$name.litmus split among 3 jobs"
done

# JSON: whole objects, with timings blanked
for t in "$dir"/json/*.litmus; do
  (cd "$dir/json" && "$lc" --json "$(basename "$t")" 2>/dev/null) |
    sed -e 's/"seconds":[0-9][0-9.e+-]*/"seconds":0/' -e 's/"\(lower\|encode\|flags\|states\)":[0-9][0-9.e+-]*/"\1":0/g'  -e 's/"solver_checks":[0-9]*/"solver_checks":0/' >"$tmp/out"
  check_whole "$t.expected" "$tmp/out" "json/$(basename "$t")"
done
# a file that cannot be read is an error object too, between its neighbours
(cd "$dir/json" && "$lc" --json CoRW.litmus no-such-file.litmus CoRW.litmus 2>"$tmp/err") |
  sed -n 2p >"$tmp/out"
check_whole "$dir/json/no-such-file.expected" "$tmp/out" "json: a file that cannot be read"
echo "litmus-check: cannot read 'no-such-file.litmus': No such file or directory" >"$tmp/want"
check_whole "$tmp/want" "$tmp/err" "json: a file that cannot be read, stderr" keep

for t in "$dir"/races/*.litmus; do
  (cd "$dir/races" && "$lc" "$(basename "$t")" 2>/dev/null) | grep -v '^Time ' >"$tmp/out"
  check_whole "$t.expected" "$tmp/out" "races/$(basename "$t")"
done

# alias chains: generic of generic, proxy view of a generic alias, fences through a chain
for t in "$dir"/alias/*.litmus; do
  (cd "$dir/alias" && "$lc" "$(basename "$t")" 2>/dev/null) | grep -v '^Time ' >"$tmp/out"
  check_whole "$t.expected" "$tmp/out" "alias/$(basename "$t")"
done

# --termination: both engines give the same whole output, witness included
for t in "$dir"/termination/*.litmus "$top_srcdir"/litmus/spin/SL-cas+*.litmus; do
  want="$dir/termination/$(basename "$t").expected"
  for engine in enum smt; do
    (cd "$(dirname "$t")" && "$lc" --termination --engine "$engine" "$(basename "$t")" 2>/dev/null) |
      grep -v '^Time ' >"$tmp/out"
    check_whole "$want" "$tmp/out" "termination/$(basename "$t") ($engine)"
  done
done
# ... and the corpus' deadlocks at barriers met in opposite orders
corpus=${CORPUS_DIR:-$top_srcdir/../shared/dat3m-ptx}/litmus/PTX/Manual
if [ -d "$corpus" ]; then
  for name in PC-bar-sync-sync-3 PC-bar-sync-sync-4; do
    for engine in enum smt; do
      (cd "$corpus" && "$lc" --termination --engine "$engine" "$name.litmus" 2>/dev/null) | grep -v '^Time ' >"$tmp/out"
      check_whole "$dir/termination/corpus/$name.litmus.expected" "$tmp/out" "termination/corpus/$name ($engine)"
    done
  done
else
  echo "skipped: the corpus' PC-bar-sync-sync-3/4 (no $corpus)"
fi

while IFS='|' read -r name want args; do
  case "$name" in ''|'#'*) continue ;; esac
  (cd "$dir/check-errors" && eval "\"\$lc\" $args" >/dev/null 2>"$tmp/err"; echo $? >"$tmp/status")
  # the installed models folder depends on --prefix: keep the message, not the path list
  sed -e "s|$(cd "$top_srcdir" && pwd)|TOP|g" -e 's|(looked for \([^ ]*\) in: .*)|(looked for \1 in: ...)|' \
    "$tmp/err" >"$tmp/err2"
  got=$(cat "$tmp/status")
  if [ "$got" != "$want" ]; then
    bad "check-errors/$name: exit status $got, expected $want"
    cat "$tmp/err2"
  else
    check_whole "$dir/check-errors/$name.expected-err" "$tmp/err2" "check-errors/$name"
  fi
done <"$dir/check-errors/cases"

# --timeout bounds the termination question too: exit 3, "out of time", and
# soon (unbounded, with every spin retry unrolled, the first takes 1.3 s, the
# second over 10 s; with a retry kept once, under a second).  Which phase runs
# out depends on the machine's load, and the hard bound on a test (a phase that
# overruns is killed, with no phase named) may come first, so the message's
# tail is not compared; the wall-time bound is loose for the same reason.
for args in "--engine smt --unroll 4 --all-retries --timeout 0.3 $top_srcdir/litmus/spin/SL-cas+acq-rel.litmus" \
            "--engine enum --unroll 6 --all-retries --timeout 1 $dir/check-errors/spin-slow-question.litmus"; do
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$lc" --termination $args >/dev/null 2>"$tmp/err"
  rc=$? t1=$(date +%s.%N)
  limit=$(echo "$args" | sed 's/.*--timeout \([0-9.]*\).*/\1/')
  if [ $rc = 3 ] && grep -q "error: out of time (--timeout $limit s)" "$tmp/err" &&
     [ "$(echo "$t1 - $t0 < 2 * $limit + 1" | bc)" = 1 ]; then
    ok "--termination $args: out of time"
  else
    bad "--termination $args: exit $rc after $(echo "$t1 - $t0" | bc) s"
    grep -v warning: "$tmp/err"
  fi
done

finish "e2e check"

#!/bin/sh
# load-bounds.sh - the model's load is bounded: a model of 22 functions
# each calling the one before twice would expand to 2^22 copies of its
# body; the expansions are capped, so under --timeout 1 or --max-memory
# 64M (a model given with -m is first read in a process apart under both)
# the run ends at once, exit 2, naming a function; and a model that loads
# at once still checks under --timeout 1; long models (20,000 chained
# definitions, 20,000 checks, 4,000 unnamed checks) load and check at once.
set -u
. "$(dirname "$0")/lib.sh"
make_tmp
t="$top_srcdir/tests/e2e/herd-lang/SB.litmus"
{
  echo '"deep"'
  echo 'let f0(a) = a | a'
  i=1
  while [ $i -le 22 ]; do
    echo "let f$i(a) = f$((i - 1))(a) ; f$((i - 1))(a)"
    i=$((i + 1))
  done
  echo 'acyclic f22(po) as deep'
} >"$tmp/deep.cat"

timed deep-timeout "$lc" --timeout 1 --model "$tmp/deep.cat" "$t"
exit_was 2 "deep model under --timeout 1"
within 5 "deep model under --timeout 1"
grep -q "error: expanding 'f" "$tmp/deep-timeout.err" ||
  bad "deep model under --timeout 1: no message naming the function ($(cat "$tmp/deep-timeout.err"))"

timed deep-memory "$lc" --max-memory 64M --model "$tmp/deep.cat" "$t"
exit_was 2 "deep model under --max-memory 64M"
within 5 "deep model under --max-memory 64M"

timed quick "$lc" --timeout 1 --model "$top_srcdir/models/sc.cat" "$t"
exit_was 0 "sc.cat under --timeout 1"
grep -q '^Observation SB Never 0 3' "$tmp/quick.out" || bad "sc.cat under --timeout 1: no verdict"
# long models: 20,000 definitions each naming the one before (their
# evaluation once recursed as deep and crashed), 20,000 named checks,
# 4,000 unnamed ones: each loads and checks SB at once, nothing
# forbidden (every check is acyclic po)
awk 'BEGIN { print "\"chain\""; print "let x0 = po"
             for (i = 1; i < 20000; i++) printf "let x%d = po | x%d\n", i, i - 1
             print "acyclic x19999 as A" }' >"$tmp/chain.cat"
awk 'BEGIN { print "\"named\""; for (i = 0; i < 20000; i++) printf "acyclic po as c%d\n", i }' >"$tmp/named.cat"
awk 'BEGIN { print "\"unnamed\""; for (i = 0; i < 4000; i++) print "acyclic po" }' >"$tmp/unnamed.cat"
for m in chain named unnamed; do
  for e in enum smt; do
    timed "$m-$e" "$lc" -e "$e" --timeout 20 --model "$tmp/$m.cat" "$t"
    exit_was 0 "$m.cat, engine $e"
    within 10 "$m.cat, engine $e"
    grep -q '^Observation SB Sometimes 1 3' "$tmp/$m-$e.out" || bad "$m.cat, engine $e: $(cat "$tmp/$m-$e.out" "$tmp/$m-$e.err")"
  done
done
finish load-bounds

#!/bin/sh
# load-bounds.sh - the model's load is bounded: a model of 22 functions
# each calling the one before twice would expand to 2^22 copies of its
# body; the expansions are capped, so under --timeout 1 or --max-memory
# 64M (a model given with -m is first read in a process apart under both)
# the run ends at once, exit 2, naming a function; and a model that loads
# at once still checks under --timeout 1.
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
finish load-bounds

#!/bin/sh
# load-bounds.sh - --timeout and --max-memory bound the model's load too: a
# model of 22 functions each calling the one before twice expands to 2^22
# copies of its body.  Under --timeout 1 the run ends within 5 s, exit 3,
# with the message that names the load; under --max-memory 64M it ends
# out of memory, exit 4; and a model that loads at once still checks
# under --timeout 1 (the timer is lifted after the load).
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
exit_was 3 "deep model under --timeout 1"
within 5 "deep model under --timeout 1"
grep -q 'loading the model took longer than --timeout' "$tmp/deep-timeout.err" ||
  bad "deep model under --timeout 1: no message naming the load ($(cat "$tmp/deep-timeout.err"))"

timed deep-memory "$lc" --max-memory 64M --model "$tmp/deep.cat" "$t"
exit_was 4 "deep model under --max-memory 64M"

timed quick "$lc" --timeout 1 --model "$top_srcdir/models/sc.cat" "$t"
exit_was 0 "sc.cat under --timeout 1"
grep -q '^Observation SB Never 0 3' "$tmp/quick.out" || bad "sc.cat under --timeout 1: no verdict"
finish load-bounds

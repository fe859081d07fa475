#!/bin/sh
# no-check-model.sh - a model with no check that cuts (herd's c11_cos.cat
# alone: mo chosen, nothing required; tests/e2e/herd-onevent/bare.cat) on
# CAS loops, where every read of a plain location may read any of its
# writes and values come from thin air: Dat3M's C11/manual/TSan.litmus
# (../shared/dat3m-c11; herd7 refuses it).  P0 loads x twice; P1 and P2
# each load x into a plain y (a), retry a strong CAS of x from *y to *y
# until it succeeds, then store 1 (2) to x.  With no check, each of P0's
# loads may read any write to x of an execution: the initial 0, P1's 1
# and P2's 2 (the CASes write what *y read, also one of these), and an
# execution where both CASes succeed at the first try has all three, so
# the states are the nine pairs of {0,1,2}: exists (0:r0=2 /\ 0:r1=0) is
# Ok.  The explicit engine took minutes here (values guessed for every
# source of every plain read of the third try's frame before any state
# was known; now states found in the short frames cut the rest), and so
# did Z3 (a read on a cycle of values took every bit-vector; now the
# location's domain).  The loads and CAS reads of both loops read their
# own thread's values around a cycle (flag thin-air), and the bound cuts
# the loops.  Both engines.
set -u
. "$(dirname "$0")/lib.sh"
source_models
t="$top_srcdir/../shared/dat3m-c11/litmus/C11/manual/TSan.litmus"
[ -f "$t" ] || skip "no Dat3M C11 corpus at $top_srcdir/../shared/dat3m-c11"
make_tmp

cat >"$tmp/want" <<'STATES'
States 9
P0:r0=0; P0:r1=0;
P0:r0=0; P0:r1=1;
P0:r0=0; P0:r1=2;
P0:r0=1; P0:r1=0;
P0:r0=1; P0:r1=1;
P0:r0=1; P0:r1=2;
P0:r0=2; P0:r1=0;
P0:r0=2; P0:r1=1;
P0:r0=2; P0:r1=2;
Ok
STATES
for e in enum smt; do
  timed "$e" "$lc" -e "$e" --timeout 20 --model "$top_srcdir/tests/e2e/herd-onevent/bare.cat" "$t"
  exit_was 0 "$e bare.cat TSan"
  within 5 "$e bare.cat TSan (enum 0.03 s, smt 0.2 s on a 2-core VM)"
  sed -n '/^States/,/^\(Ok\|No\)$/p' "$tmp/$e.out" >"$tmp/states"
  check_whole "$tmp/want" "$tmp/states" "$e bare.cat TSan: the nine pairs of {0,1,2}" keep
  if grep -q '^Flag thin-air: P1 line 12' "$tmp/$e.out" && grep -q 'need more loop iterations than --unroll 2' "$tmp/$e.err"
  then ok "$e bare.cat TSan: flag thin-air and the loop bound said"
  else bad "$e bare.cat TSan: no flag thin-air or no bound warning: $(cat "$tmp/$e.out" "$tmp/$e.err")"; fi
done
finish no-check-model

#!/bin/sh
# herd-onevent.sh - a model written for herd's C read-modify-write (one
# event that both reads and writes; herd/CSem.ml's Act.RMW) is evaluated
# over that view of our two events (src/cat/cat_onevent.c).  The expected
# states and flags are herd7's (herdtools7 61e77ef, each model with
# `include "cross.cat"` added, which herd needs for generate_orders):
#   atomic.cat  c11_base.cat's atomicity irreflexive (mo; mo; rf^-1):
#       FAA2 y=2 only; XCHG r1=0,y=1 and r1=1,y=2;
#   atrmw.cat   simple-c11.cat's AtRMW (rf; [RMW] immediately mo-after):
#       the same (every execution with an RMW was forbidden when the RMW
#       was taken for two events);
#   bare.cat    mo chosen, no check (c11_cos.cat alone): FAA2 y=1 and y=2
#       (herd's RMW is not atomic unless a check says so); XCHG the four
#       states, never r1=2 (an RMW does not read its own write);
#   orders.cat  the order sets of an RMW event: an acq_rel RMW is ACQ_REL
#       only, release REL, acquire ACQ, relaxed RLX, seq_cst SC, and each
#       is in R and W;
#   bare.cat on LB+datas (each thread stores what it loaded): herd7's
#       states are 0:r0=0 and 0:r0=S8, a symbolic value out of thin air;
#       here the one value of the domain that the cycle reproduces, 0,
#       with the flag thin-air on both loads: not herd7's answer, and said.
# And where herd's libdir is at hand (HERD_LIBDIR, else herdtools7's
# installed one under HERDTOOLS7, default /work/tools/herdtools7), its own
# simple-c11.cat, c11_orig.cat, c11_partialSC.cat, c11_simp.cat and
# c11_cos.cat on FAA2, XCHG and CAS (a strong compare-exchange against a
# store), against herd-libdir.expected, recorded from herd7 61e77ef.
# Both engines.  PROMOTE=1 rewrites the expected file.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/herd-onevent"
make_tmp

: >"$tmp/out"
for e in enum smt; do
  for m in atomic atrmw bare; do
    for t in FAA2 XCHG; do
      printf '%s %s %s: ' "$e" "$m" "$t" >>"$tmp/out"
      "$lc" -e "$e" --model "$dir/$m.cat" "$dir/$t.litmus" 2>&1 |
        sed -n '/^States/,/^\(Ok\|No\)/p;/error\|warning/p' | tr '\n' ' ' >>"$tmp/out"
      echo >>"$tmp/out"
    done
  done
  # the explicit engine only here (both engines on a model with no
  # check: no-check-model.sh)
  [ "$e" = enum ] && printf '%s bare LB+datas: ' "$e" >>"$tmp/out" &&
  "$lc" -e "$e" --model "$dir/bare.cat" "$dir/LB+datas.litmus" 2>&1 |
    sed -n '/^States/,/^\(Ok\|No\)/p;/^Flag/p;/error\|warning/p' | tr '\n' ' ' >>"$tmp/out" &&
  echo >>"$tmp/out"
  for o in acq_rel release acquire relaxed seq_cst; do
    printf '%s orders RMW-%s: ' "$e" "$o" >>"$tmp/out"
    "$lc" -e "$e" --model "$dir/orders.cat" "$dir/RMW-$o.litmus" 2>&1 |
      sed -n 's/^\(Flag [a-z_]*\).*/\1/p;/error\|warning/p' | sort | tr '\n' ' ' >>"$tmp/out"
    echo >>"$tmp/out"
  done
done
check_whole "$dir/herd-onevent.expected" "$tmp/out" "herd's one-event RMW view: states and flags as herd7's"
ht=${HERDTOOLS7:-/work/tools/herdtools7}
lib=${HERD_LIBDIR:-$ht/share/herdtools7/herd}
[ -f "$lib/simple-c11.cat" ] || lib=$ht/herd/libdir
if [ -f "$lib/simple-c11.cat" ]; then
  : >"$tmp/lib"
  for e in enum smt; do
    for m in simple-c11 c11_orig c11_partialSC c11_simp c11_cos; do
      for t in FAA2 XCHG CAS; do
        printf '%s %s %s: ' "$e" "$m" "$t" >>"$tmp/lib"
        LITMUS_MODELS=$lib "$lc" -e "$e" --format herd --model "$lib/$m.cat" "$dir/$t.litmus" 2>&1 |
          awk '/^States/ { n = $2; next } n > 0 { n--; gsub(/\[|\]/, ""); printf "%s ", $0 } END { print "" }' >>"$tmp/lib"
      done
    done
  done
  check_whole "$dir/herd-libdir.expected" "$tmp/lib" "herd's C11 models on RMW tests: herd7's states"
else
  echo "skip: herd's libdir not at hand"
fi
finish herd-onevent

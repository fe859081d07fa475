#!/bin/sh
# diy-edges.sh - litmus-gen reads diy's C vocabulary and makes diy's tests.
#   - every edge `diyone7 -arch C -show edges` lists (herdtools7 61e77ef,
#     stored in diy-edges/edges.txt) and every C annotation is accepted;
#   - the tests of a pinned set of cycles (diy-edges/cycles.txt), herd's C
#     dialect (--dialect c) and PTX, are compared whole with the stored
#     ones (checked against diyone7 when they were stored: scripts/
#     diy-parity gives the same program and condition for all but the
#     cycles it names), and read back;
#   - --cycles for two edge sets, compared whole (diy7's sets of cycles);
#   - the errors on what diy refuses or this generator cannot write;
#   - when diy7, diyone7 and herd7 are installed: scripts/diy-parity on the
#     pinned cycles and two edge sets agrees with them.
set -u
. "$(dirname "$0")/lib.sh"
source_models
make_tmp
exp=$abs_top_srcdir/tests/e2e/diy-edges
filter() { sed "s|$tmp|TMP|g"; }

# every edge and annotation diy's C target has
n=0 refused=0
while read -r e; do
  n=$((n + 1))
  if ! "$lgen" --cycles "$e" --size 2-2 --dialect c -o "$tmp/acc" >/dev/null 2>"$tmp/acc.err"; then
    refused=$((refused + 1))
    echo "refused: $e: $(cat "$tmp/acc.err")"
  fi
done <"$exp/edges.txt"
for a in Na Rlx Acq Rel AR Con Sc A P; do
  n=$((n + 1))
  "$lgen" --cycles "$a" --size 2-2 -o "$tmp/acc" >/dev/null 2>&1 || { refused=$((refused + 1)); echo "refused: $a"; }
done
if [ "$refused" = 0 ]; then ok "diy's $n C edges and annotations accepted"; else bad "$refused of $n diy edges refused"; fi

# the pinned cycles, C and PTX
: >"$tmp/c" && : >"$tmp/ptx"
while read -r cyc; do
  for d in c ptx; do
    echo "== $cyc" >>"$tmp/$d"
    if "$lgen" --cycle "$cyc" --dialect $d >"$tmp/one.litmus" 2>>"$tmp/$d"; then
      cat "$tmp/one.litmus" >>"$tmp/$d"
      round_trips "$tmp/one.litmus"
    else
      echo "exit $?" >>"$tmp/$d"
    fi
  done
done <"$exp/cycles.txt"
check_whole "$exp/c-tests.out" "$tmp/c" "pinned cycles, herd's C dialect"
check_whole "$exp/ptx-tests.out" "$tmp/ptx" "pinned cycles, PTX"

# verdicts of some C tests under the C model (derived before running:
# release/acquire MP and SC-fenced SB are forbidden in C11, relaxed MP allowed)
verdict() {   # WANT CYCLE
  "$lgen" --cycle "$2" --dialect c >"$tmp/v.litmus" 2>&1
  got=$("$lc" "$tmp/v.litmus" 2>/dev/null | sed -n 's/^Observation [^ ]* \([A-Za-z]*\) .*/\1/p')
  if [ "$got" = "$1" ]; then ok "$2: $got"; else bad "$2: '$got', expected $1"; fi
}
verdict Never "RfeRelAcq PodRRAcqRlx FreRlxRlx PodWWRlxRel"
verdict Sometimes "RfeRlxRlx PodRRRlxRlx FreRlxRlx PodWWRlxRlx"
verdict Never "FenceScdWR FreRlxRlx FenceScdWR FreRlxRlx"

# --cycles: diy7's sets (diy7 -arch C -safe SET -size 6 makes these 26;
# with -relax, one relaxation a cycle)
check_run "--cycles plain" 0 "$exp/family-plain.out" \
  "$lgen" --cycles "Rfe,Fre,Coe,PodRR,PodRW,PodWR,PodWW" --size 2-6 --dialect c -o "$tmp/f1"
check_run "--cycles relax/safe" 0 "$exp/family-relax.out" \
  "$lgen" --cycles "PodWWRlxRel,PodRRAcqRlx" --safe "RfeRelAcq,FreRlxRlx,CoeRlxRlx,RfeRlxRlx,PodWRRlxRlx,PodRWAcqRlx" \
  --size 2-5 --dialect c -o "$tmp/f2"
check_run "--cycles --mode free" 0 "$exp/family-free.out" \
  "$lgen" --cycles "Rfe,Fre,PodRR,PodWW" --size 2-4 --mode free -o "$tmp/f3"

# what is refused, with the edge named
: >"$tmp/errors"
for c in "RfLeave PodRR FrBack PodWR Fre" "RfLeave PodRR Fre PodWW" "Rfe PodRR Fre Store PodWW" "Pod** Rfe Pod** Fre" \
         "PodWR Fre Read PodRR Fre" "Rfe FenceSc PodRR Fre PodWW" "Rfe PodRR Hat Fre PodWW" \
         "PodWW Coe Coi PodWW Coe" "RfeRelAcq PodRRAcqRlx FreRlxNa PodWWNaRel" "Rfe PodRR Fre ExchRlxAcq PodWR"; do
  echo "== $c" >>"$tmp/errors"
  "$lgen" --cycle "$c" --dialect c >>"$tmp/errors" 2>&1
  echo "exit $?" >>"$tmp/errors"
done
for c in "FenceRlxdWR Fre FenceRlxdWR Fre" "Rfe DpAddrdR Fre PodWW" "Rfe PodRRAcqSc Fre PodWW"; do
  echo "== $c (PTX)" >>"$tmp/errors"
  "$lgen" --cycle "$c" >>"$tmp/errors" 2>&1
  echo "exit $?" >>"$tmp/errors"
done
check_whole "$exp/errors.out" "$tmp/errors" "refusals name the edge"

# against herdtools7 itself (diy-parity says when it is not installed)
IFS='
'
# shellcheck disable=SC2046
"$abs_top_srcdir/scripts/diy-parity" $(cat "$exp/cycles.txt") \
  "Rfe,Fre,Coe,PodRR,PodRW,PodWR,PodWW:5" "RfeRlxRlx,FreRlxRlx,CoeRlxRlx,ExchRlxRlx,PodWRRlxRlx,PodRRRlxRlx,PodWWRlxRlx:4" \
  >"$tmp/parity" 2>&1
rc=$?
unset IFS
if grep -q "not found" "$tmp/parity"; then
  echo "no comparison with herdtools7: $(cat "$tmp/parity")"
elif [ "$rc" = 0 ]; then
  ok "diy-parity: $(tail -1 "$tmp/parity")"
else
  bad "diy-parity"; cat "$tmp/parity"
fi

finish diy-edges

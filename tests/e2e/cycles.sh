#!/bin/sh
# cycles.sh - litmus-gen --cycle and --cycles.  The test of each classic
# cycle must have the verdict of its hand-written counterpart in litmus/
# (the model's observation of the condition: Never, Sometimes, Always);
# some generated tests, the errors on bad cycles and a --cycles listing
# are compared whole with tests/e2e/cycles/; every generated test reads
# back to the same print.
set -u
. "$(dirname "$0")/lib.sh"
source_models
make_tmp
exp=$abs_top_srcdir/tests/e2e/cycles
lit=$abs_top_srcdir/litmus
filter() { sed "s|$tmp|TMP|g"; }

observation() {   # FILE [litmus-check options]: Never, Sometimes or Always
  _f=$1; shift
  "$lc" "$@" "$_f" 2>/dev/null | sed -n 's/^Observation [^ ]* \([A-Za-z]*\) .*/\1/p'
}

# same_verdict COUNTERPART CYCLE [litmus-gen options] [-- litmus-check options]
same_verdict() {
  _ref=$1 _cyc=$2; shift 2
  _gen="" _chk=""
  while [ $# -gt 0 ] && [ "$1" != -- ]; do _gen="$_gen $1"; shift; done
  [ $# -gt 0 ] && shift
  _chk="$*"
  # shellcheck disable=SC2086
  if ! "$lgen" --cycle "$_cyc" $_gen >"$tmp/gen.litmus" 2>"$tmp/err"; then
    bad "$_cyc: litmus-gen failed"; cat "$tmp/err"; return
  fi
  round_trips "$tmp/gen.litmus"
  # shellcheck disable=SC2086
  _want=$(observation "$lit/$_ref" $_chk)
  # shellcheck disable=SC2086
  _got=$(observation "$tmp/gen.litmus" $_chk)
  if [ -n "$_want" ] && [ "$_want" = "$_got" ]; then
    ok "$_cyc ($(sed -n '1s/^[A-Z]* //p' "$tmp/gen.litmus")): $_got, as $_ref"
  else
    bad "$_cyc: observation '$_got', but $_ref: '$_want'"
  fi
}

# PTX: the plain shapes (all allowed) and their synchronised variants
same_verdict MP.litmus "Rfe PodRR Fre PodWW"
same_verdict SB.litmus "PodWR Fre PodWR Fre"
same_verdict LB.litmus "Rfe PodRW Rfe PodRW"
same_verdict IRIW.litmus "Rfe PodRR Fre Rfe PodRR Fre"
same_verdict WRC.litmus "Rfe PodRW Rfe PodRR Fre"
same_verdict ISA2.litmus "PodWW Rfe PodRW Rfe PodRR Fre"
same_verdict 2+2W.litmus "PodWW Wse PodWW Wse"
same_verdict R.litmus "PodWW Wse PodWR Fre"
same_verdict S.litmus "PodWW Rfe PodRW Wse"
same_verdict MP+rel-acq-gpu.litmus "RfeRelAcq PodRRAcqP Fre PodWWPRel"
same_verdict MP+rel-acq-cta+same-cta.litmus "RfeRel.ctaAcq.cta@cta PodRRAcq.ctaP Fre@cta PodWWPRel.cta"
same_verdict MP+rel-acq-gpu+diff-gpu.litmus "RfeRelAcq@sys PodRRAcqP Fre@sys PodWWPRel"
same_verdict MP+fence.acq_rel-gpu.litmus "Rfe Fenced.acq_relRR Fre Fenced.acq_relWW"
same_verdict SB+fence.sc-gpu.litmus "Fenced.scWR Fre Fenced.scWR Fre"
same_verdict SB+fence.acq_rel-gpu.litmus "Fenced.acq_relWR Fre Fenced.acq_relWR Fre"
same_verdict LB+data.litmus "Rfe DpDatadW Rfe DpDatadW"
same_verdict IRIW+fence.sc-sys.litmus "Rfe Fenced.scRR Fre Rfe Fenced.scRR Fre" --scope sys
same_verdict WRC+rel-acq-gpu.litmus "Rfe PodRWRlxRel RfeRelAcq PodRR Fre"
same_verdict ISA2+rel-acq-gpu.litmus "PodWWPRel RfeRelAcq PodRWAcqRel RfeRelAcq PodRRAcqP Fre"
same_verdict 2+2W+fence.sc-gpu.litmus "Fenced.scWW Wse Fenced.scWW Wse"
# CUDA C++ under cuda-cpp
same_verdict cuda-cpp/ISA2+rel-acq.litmus "PodWWRlxRel RfeRelAcq PodRWAcqRel RfeRelAcq PodRR Fre" --dialect cpp -- -m cuda-cpp
same_verdict cuda-cpp/2+2W+rlx.litmus "PodWW Wse PodWW Wse" --dialect cpp --scope sys -- -m cuda-cpp
same_verdict cuda-cpp/LB+rlx.litmus "Rfe PodRW Rfe PodRW" --dialect cpp --scope sys -- -m cuda-cpp
same_verdict cuda-cpp/IRIW+sc.litmus "RfeScSc PodRR FreScSc RfeScSc PodRR FreScSc" --dialect cpp --scope sys -- -m cuda-cpp
same_verdict cuda-cpp/IRIW+acq.litmus "RfeRelAcq PodRR FreAcqRel RfeRelAcq PodRR FreAcqRel" --dialect cpp --scope sys -- -m cuda-cpp

# the names and conditions diyone7 -norm (herdtools7 7.58, -arch AArch64)
# gives the same cycles, its registers and locations in our spelling
while IFS='|' read -r cyc name cond; do
  got=$("$lgen" --cycle "$cyc" 2>&1 | sed -n '1s/^PTX //p;$p' | tr '\n' '|')
  if [ "$got" = "$name|$cond|" ]; then ok "diy: $cyc is $name"; else bad "diy: $cyc: got '$got', diyone7: '$name|$cond'"; fi
done <<'DIY'
Rfe PodRR Fre PodWW|MP|exists (P1:r0 == 1 /\ P1:r1 == 0)
PodWR Fre PodWR Fre|SB|exists (P0:r0 == 0 /\ P1:r0 == 0)
Rfe PodRW Rfe PodRW|LB|exists (P0:r0 == 1 /\ P1:r0 == 1)
Rfe PodRR Fre Rfe PodRR Fre|IRIW|exists (P1:r0 == 1 /\ P1:r1 == 0 /\ P3:r0 == 1 /\ P3:r1 == 0)
Rfe PodRW Rfe PodRR Fre|WRC|exists (P1:r0 == 1 /\ P2:r0 == 1 /\ P2:r1 == 0)
PodWW Rfe PodRW Rfe PodRR Fre|ISA2|exists (P1:r0 == 1 /\ P2:r0 == 1 /\ P2:r1 == 0)
PodWW Wse PodWW Wse|2+2W|exists (x == 2 /\ y == 2)
PodWW Wse PodWR Fre|R|exists (P1:r0 == 0 /\ y == 2)
PodWW Rfe PodRW Wse|S|exists (P1:r0 == 1 /\ x == 2)
Rfe DpDatadW Rfe DpCtrldW|LB+data+ctrl|exists (P0:r0 == 1 /\ P1:r0 == 1)
Rfe Fenced.scRR Fre PodWW|MP+po+fence.sc|exists (P1:r0 == 1 /\ P1:r1 == 0)
PodWR Fre Fenced.scWR Fre|SB+fence.sc+po|exists (P0:r0 == 0 /\ P1:r0 == 0)
Rfi PodRR Fre Rfe PodRR Fre|RWC+po+rfi-po|exists (P1:r0 == 1 /\ P1:r1 == 0 /\ P2:r0 == 1 /\ P2:r1 == 0)
Wsi Rfe PodRR Fre PodWW|MP+po-coi+po|exists (P1:r0 == 2 /\ P1:r1 == 0 /\ y == 2)
Rfe PodRR PodRW Wse|W+RW+poR-po|exists (P1:r0 == 2 /\ x == 2)
Rfe DpCtrldW Rfe DpCtrldR Fre PodWW|ISA2+po+ctrl+ctrl|exists (P1:r0 == 1 /\ P2:r0 == 1 /\ P2:r1 == 0)
DIY

# whole tests
check_run "MP" 0 "$exp/MP.out" "$lgen" --cycle "Rfe PodRR Fre PodWW"
check_run "annotations and placement" 0 "$exp/IRIW+annotated.out" \
  "$lgen" --cycle "RfeRel.gpuAcq.gpu PodRR Fre Rfe@cta Fenced.sc.ctaRR Fre@cta"
check_run "dependencies and membar" 0 "$exp/LB+deps.out" "$lgen" --cycle "Rfe DpDatadW Rfe DpCtrldW Membard.sysWW Wse"
check_run "C++" 0 "$exp/MP+cpp.out" "$lgen" --cycle "RfeRelAcq DpCtrldR Fre Fenced.sc.gpuWW" --dialect cpp
check_run "one location (CoWR)" 0 "$exp/CoWR.out" "$lgen" --cycle "PosWR Fre Wse"
# a location written twice without a coherence edge between the writes
# (a read of y, then a write of y under its control): diy7 names y's final
# value all the same, `exists ([y]=2 /\ 1:r0=1 /\ 2:r0=2 /\ 2:r1=0)`
check_run "two writes, no Ws edge" 0 "$exp/ISA2+ctrls.out" "$lgen" --cycle "PodWW Rfe DpCtrlsW Rfe PodRR Fre" --dialect c
check_run "clusters" 0 "$exp/SB+clusters.out" "$lgen" --cycle "PodWR Fre@cluster PodWR Fre@cluster" --scope cluster

# bad cycles: an error naming the edge, exit status 2, nothing written
: >"$tmp/errors"
for c in "Rfe PodRR Fre PodWR" "Rfe PodRR Fre" "PodWR Fre PodWR Fri" "PodWW Rfe PosRW Wse" "Rfx PodRR" \
         "PodXW Fre" "RfeAcqRel PodRR Fre PodWW" "Rfe@cta PodRW Rfe@gpu PodRW" "Rfe DpAddrdR Fre PodWW" \
         "Rfe PodRR@cta Fre PodWW" "RfeRelAcq PodRRRlxP Fre PodWW" "Fenced.scW Fre" "PodWWScSc Wse PodWW Wse" \
         "Rfe@cta PodRW Rfe@cta PodRW@gpu" ""; do
  "$lgen" --cycle "$c" >>"$tmp/errors" 2>&1
  echo "exit $?" >>"$tmp/errors"
done
"$lgen" --cycle "Rfe Membard.glRR Fre PodWW" --dialect cpp >>"$tmp/errors" 2>&1
echo "exit $?" >>"$tmp/errors"
"$lgen" --cycles "Rfe PodRR" >>"$tmp/errors" 2>&1
echo "exit $?" >>"$tmp/errors"
check_whole "$exp/errors.out" "$tmp/errors" "errors name the edge"

# every cycle of a family, as diy7 would enumerate them
check_run "--cycles" 0 "$exp/family.out" "$lgen" --cycles "Rfe,Fre,Wse,PodRR,PodRW,PodWR,PodWW" --size 2-4 -o "$tmp/fam"
n=0
for f in "$tmp"/fam/*.litmus; do round_trips "$f"; n=$((n + 1)); done
echo "read back $n tests of the family"
ls "$tmp/fam" >"$tmp/files"
check_whole "$exp/family-files.out" "$tmp/files" "--cycles file names"

finish cycles

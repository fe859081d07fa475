#!/bin/sh
# diff-models.sh - litmus-check --diff-models A B: the tests on which two
# models' states differ, on files, generated tests and every program
# within a bound.  Whole outputs (times and paths dropped); the smallest
# distinguishing tests of the held-out pairs, each model PTX 7.5 with one
# axiom dropped, were derived from the models before the search ran
# (docs/diff-models.md, "What the search finds") and are asserted line by
# line besides.  PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir/tests/e2e/diff-models" || exit 99
make_tmp
source_models
# times change from run to run; the models' folder and $tmp from tree to tree
filter() {
  sed -e "s|$tmp/||g" -e "s|$abs_top_srcdir/||g" -e 's/ ([0-9.]* s)$/ (TIME)/' -e 's/^Time [0-9.]*$/Time TIME/' \
      -e 's/"seconds":[0-9.e+-]*/"seconds":TIME/g'
}
run() {
  name=$1 want=$2
  shift 2
  check_run "$name" "$want" "$name.expected" "$lc" "$@"
}
# has NAME LINE: the output of the last run holds LINE (a derived answer)
has() {
  if grep -qxF -- "$2" "$tmp/out"; then ok "$1: $2"; else bad "$1: no line '$2'"; fi
}

# ---- tests from files -------------------------------------------------------------
# Alias-LB: 7.5 lets a read return a later write through another virtual
# address; 6.0 forbids it by SC-per-Location, and by Coherence too (its cause is a cycle through the write, and loc, as herd defines it, relates the write to itself).  The fenced twin, MP and CoRR
# (no alias) are the same under both; the C++ test is of another dialect.
lit=$abs_top_srcdir/litmus
run files 1 --diff-models ptx-v6.0 ptx-v7.5 tests/ "$lit/MP+rel-acq-gpu.litmus" "$lit/CoRR.litmus" \
  "$lit/cuda-cpp/MP+rlx.litmus"
has files "  P0:r0=1;  allowed by ptx-v7.5, forbidden by ptx-v6.0: Coherence or SC-per-Location"
run files-json 1 --json --diff-models ptx-v6.0 ptx-v7.5 tests/
run files-same 0 --diff-models ptx-v7.5 ptx-v7.5 tests/ "$lit/MP+rel-acq-gpu.litmus"
# usage: two models, one source, models of one dialect
run no-models 2 --diff-models ptx-v7.5
run two-sources 2 --diff-models ptx-v6.0 ptx-v7.5 --exhaustive tests/
run no-source 2 --diff-models ptx-v6.0 ptx-v7.5
run dialects 2 --diff-models ptx-v7.5 cuda-cpp tests/
run bad-bound 2 --diff-models ptx-v6.0 ptx-v7.5 --exhaustive --bound threads=9
run bad-bound-ctrl 2 --diff-models ptx-v6.0 ptx-v7.5 --exhaustive --bound ctrl=1
run bound-without 2 --diff-models ptx-v6.0 ptx-v7.5 --bound events=2 tests/

# ---- generated tests ----------------------------------------------------------------
run gen-sb 0 --diff-models ptx-v6.0 ptx-v7.5 --gen 'family=sb;size=2-3'
run gen-bad 2 --diff-models ptx-v6.0 ptx-v7.5 --gen 'family=nope'

# ---- every program within a bound ------------------------------------------------------
run count 0 --diff-models ptx-v6.0 ptx-v7.5 --exhaustive --count-only
# 6.0 and 7.5 first part at 2 instructions: one thread, an access and a
# second one through the alias (7.5's moral strength needs one virtual
# address, 6.0's one location)
run v6-v75 1 --diff-models ptx-v6.0 ptx-v7.5 --exhaustive -j 2 --max 0
has v6-v75 "Differ Rweak-x.Wweak-xa: 1 thread, 2 instructions; 1 state under ptx-v6.0, 2 under ptx-v7.5"
has v6-v75 "  P0:r0=1; x=1;  allowed by ptx-v7.5, forbidden by ptx-v6.0: Coherence or SC-per-Location"
run v6-v75-json 1 --json --diff-models ptx-v6.0 ptx-v7.5 --exhaustive -j 2 --max 1

# held-out models: PTX 7.5 with one axiom dropped (and its include beside it)
cp "$abs_top_srcdir/models/ptx-common.cat" "$tmp/"
drop() {   # drop AXIOM: the statement `... as AXIOM` taken out, the title renamed
  awk -v ax="$1" '
    { line[NR] = $0 }
    END {
      for (i = 1; i <= NR; i++) if (line[i] ~ ("as " ax "$")) last = i
      first = last
      while (line[first] !~ /^(empty|irreflexive|acyclic)/) first--
      for (i = 1; i <= NR; i++) {
        if (i >= first && i <= last) continue
        if (i == 1) print "\"PTX v7.5 without " ax "\""; else print line[i]
      }
    }' "$abs_top_srcdir/models/ptx-v7.5.cat" >"$tmp/no-$1.cat"
}
for ax in Coherence Causality Atomicity; do drop $ax; done
# Coherence: three instructions, no fewer.  One thread writing x, then
# through its alias after fence.proxy.alias (the writes are causally
# ordered by ppcb (4a) but not morally strong, so only Coherence orders
# them in co); or, in two threads, a relaxed write read by a relaxed read
# followed by a weak write (obs; ppcb orders the writes, which are not
# morally strong).  The final x = 1 needs co against causality.
run no-coherence 1 --diff-models ptx-v7.5 "$tmp/no-Coherence.cat" --exhaustive --bound events=3 -j 2 --max 0
has no-coherence "Differ Wweak-x.Falias.Wweak-xa: 1 thread, 3 instructions; 1 state under ptx-v7.5, 2 under no-Coherence.cat"
has no-coherence "  x=1;  allowed by no-Coherence.cat, forbidden by ptx-v7.5: Coherence"
has no-coherence "Differ Wrlx-x+Rrlx-x.Wweak-x: 2 threads, 3 instructions; 3 states under ptx-v7.5, 4 under no-Coherence.cat"
# Causality: three instructions.  One thread: write x, fence.proxy.alias,
# read the alias and see the initial value; two threads: CoRR whose
# second read is weak (so SC-per-Location, over morally strong pairs,
# does not forbid reading the old value after the new one).
run no-causality 1 --diff-models ptx-v7.5 "$tmp/no-Causality.cat" --exhaustive --bound events=3 -j 2 --max 0
has no-causality "Differ Wweak-x.Falias.Rweak-xa: 1 thread, 3 instructions; 1 state under ptx-v7.5, 2 under no-Causality.cat"
has no-causality "  P0:r2=0; x=1;  allowed by no-Causality.cat, forbidden by ptx-v7.5: Causality"
has no-causality "Differ Wrlx-x+Rrlx-x.Rweak-x: 2 threads, 3 instructions; 3 states under ptx-v7.5, 4 under no-Causality.cat"
has no-causality "  P1:r0=1; P1:r1=0; x=1;  allowed by no-Causality.cat, forbidden by ptx-v7.5: Causality"
# Atomicity: two instructions, a relaxed store between an exchange's read
# and write (both .gpu, hence morally strong)
run no-atomicity 1 --diff-models ptx-v7.5 "$tmp/no-Atomicity.cat" --exhaustive --bound events=2 -j 2 --max 0
has no-atomicity "Differ Wrlx-x+Urlx-x: 2 threads, 2 instructions; 2 states under ptx-v7.5, 3 under no-Atomicity.cat"
# the cycles of litmus-gen: MP with fence.acq_rel in both threads is
# forbidden by Causality alone; without it the models part there
run gen-cycles 1 --diff-models ptx-v7.5 "$tmp/no-Causality.cat" \
  --gen 'cycles=Rfe,Fenced.acq_rel.gpuRR,Fre,Fenced.acq_rel.gpuWW;size=4'
has gen-cycles "  P1:r0=1; P1:r1=0;  allowed by no-Causality.cat, forbidden by ptx-v7.5: Causality"
# two C++ models get C++ programs: cuda-cpp without Coherence (hb; eco?
# irreflexive) parts at 2 instructions, one thread reading its own
# earlier write's old value (CoWR) or ending with its first write (CoWW)
sed -e '/ as Coherence$/d' -e '1s/.*/"CUDA C++ without Coherence"/' "$abs_top_srcdir/models/cuda-cpp.cat" >"$tmp/cpp-no-coherence.cat"
run cpp-no-coherence 1 --diff-models cuda-cpp "$tmp/cpp-no-coherence.cat" --exhaustive --bound events=2 -j 2 --max 0
has cpp-no-coherence "Differ Wrlx-x.Rrlx-x: 1 thread, 2 instructions; 1 state under cuda-cpp, 2 under cpp-no-coherence.cat"
has cpp-no-coherence "Differ Wrlx-x.Wrlx-x: 1 thread, 2 instructions; 1 state under cuda-cpp, 2 under cpp-no-coherence.cat"
# --gen cycles for two C++ models writes C++ tests (they were PTX ones,
# all of another dialect): SB with SC accesses, forbidden by SC alone
sed -e '/ as SC$/d' -e '1s/.*/"CUDA C++ without SC"/' "$abs_top_srcdir/models/cuda-cpp.cat" >"$tmp/cpp-no-sc.cat"
run gen-cpp-cycles 1 --diff-models cuda-cpp "$tmp/cpp-no-sc.cat" --gen 'cycles=FreScSc,PodWRScSc;size=4'
has gen-cpp-cycles "  P0:r0=0; P1:r0=0;  allowed by cpp-no-sc.cat, forbidden by cuda-cpp: SC"
# equal models (a relation renamed): no test within the bound
sed -e 's/cause_base/cbase/g' -e '1s/.*/"PTX v7.5 renamed"/' "$abs_top_srcdir/models/ptx-v7.5.cat" >"$tmp/renamed.cat"
run renamed 0 --diff-models ptx-v7.5 "$tmp/renamed.cat" --exhaustive --bound events=3 -j 2
# Past the bound.  WF-sc needs two fence.sc in two threads (6
# instructions: SB with fence.sc, which without WF-sc may leave the fences
# unordered by sc, so no causality; with it Causality forbids both reads
# of 0 whichever way sc goes) and NoThinAir a dependency (LB with control
# dependencies, no cycle in rf | dep); neither is within --bound events=3,
# so the critical cycles of litmus-gen find them.
for ax in WF-sc NoThinAir; do drop $ax; done
run no-wf-sc 1 --diff-models ptx-v7.5 "$tmp/no-WF-sc.cat" --exhaustive --bound events=3 -j 2 --max 1
has no-wf-sc "Differ SB+fence.sc.gpus: 2 threads, 6 instructions; 3 states under ptx-v7.5, 4 under no-WF-sc.cat"
has no-wf-sc "  P0:r0=0; P1:r0=0;  allowed by no-WF-sc.cat, forbidden by ptx-v7.5: WF-sc + Causality"
run no-thin-air 1 --diff-models ptx-v7.5 "$tmp/no-NoThinAir.cat" --exhaustive --bound events=2 -j 2 --max 1
has no-thin-air "  P0:r0=1; P1:r0=1;  allowed by no-NoThinAir.cat, forbidden by ptx-v7.5: NoThinAir"
# equal models get no test, within the bound or past it: a copy with its
# lets reordered (G and same-proxy swapped, po_loc before ms), and SC with
# an axiom its SC axiom implies (co | fr is in po | rf | co | fr)
awk 'NR == 1 { print "\"PTX v7.5 reordered\""; next }
     /^let G = / { g = $0; next }
     /^let same-proxy = / { print; print g; next }
     /^let ms = / { ms = $0; next }
     /^let po_loc = / { print; print ms; next }
     { print }' "$abs_top_srcdir/models/ptx-v7.5.cat" >"$tmp/reordered.cat"
run reordered 0 --diff-models ptx-v7.5 "$tmp/reordered.cat" --exhaustive --bound events=3 -j 2
{ cat "$abs_top_srcdir/models/sc.cat"; echo 'acyclic co | fr as CoFr'; } >"$tmp/sc-implied.cat"
run sc-implied 0 --diff-models sc "$tmp/sc-implied.cat" --exhaustive --bound events=3 -j 2
finish diff-models

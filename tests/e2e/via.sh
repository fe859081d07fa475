#!/bin/sh
# via.sh - CUDA kernels through the compiler (litmus-check --via nvcc,
# docs/via-nvcc.md): every race-free kernel of litmus/kernels/ gets, from
# nvcc's PTX for sm_90 under ptx-v8, the verdict the source-level check
# gives (tests/e2e/kernels/verdicts.csv, derived from the CUDA C++ model)
# and the same termination answer; the kernels only the compiler route
# reads (litmus/kernels/nvcc/: a template, a CUTLASS-style TMA/mbarrier
# pipeline, a libcu++ semaphore class) get the verdicts and races of
# tests/e2e/via/verdicts.csv, derived from the PTX ISA and the CUDA C++
# model before the tool ran (each kernel's comment says why), and are
# refused by the source-level reader; what cannot be followed is one error
# naming the PTX line and the source line; the answer names its level;
# --via both puts the two answers side by side.  Skips without nvcc.
set -u
. "$(dirname "$0")/lib.sh"
require_nvcc
make_tmp
kdir="$top_srcdir/litmus/kernels"
vdir="$top_srcdir/tests/e2e/via"
verdict() { if grep -qx Ok "$1"; then echo 1; elif grep -qx No "$1"; then echo 0; else echo x; fi; }

# the race-free kernels: the source-level verdict
while IFS=, read -r f want; do
  grep -qx "$f" "$top_srcdir/tests/e2e/kernels/races" && continue
  (cd "$kdir" && "$lc" --via nvcc "$f" 2>/dev/null) >"$tmp/out"
  got=$(verdict "$tmp/out")
  if grep -qx "$f" "$top_srcdir/tests/e2e/kernels/unfinished"; then
    if grep -qx 'No verdict: no execution finishes' "$tmp/out"; then ok "$f --via nvcc: no execution finishes"
    else bad "$f --via nvcc: an execution finishes"; fi
  elif [ "$got" = "$want" ]; then ok "$f --via nvcc: verdict $want"; else bad "$f --via nvcc: verdict $got, expected $want"; fi
  if grep -q '^Flag' "$tmp/out"; then bad "$f --via nvcc: a race flagged"; else ok "$f --via nvcc: no race"; fi
  grep -qx 'Level: PTX as compiled by nvcc [0-9.]* for sm_90, checked under PTX v8' "$tmp/out" &&
    ok "$f: the level named" || bad "$f: no level line"
done <"$top_srcdir/tests/e2e/kernels/verdicts.csv"

# termination: the same answer at both levels (barrier-2x2 under fair
# progress only, as kernels.sh; reduce-2x4's question does not answer in
# a minute at either level)
# (the grid's barrier and the cooperative launch: every block resident, as
# at source level; bar.red's votes; a ticket lock whose slot index is a
# value chosen among constants)
for name in assert-mp caslock corr deadlock mp-acq-rel syncthreads ticketlock barrier-2x2 grid-sync-mp \
    grid-sync-divergent grid-sync-loop barrier-2x1-cooperative ticketlock-class reduce-last-block syncthreads-count \
    syncthreads-and-or extern-shared; do
  progress=; [ $name = barrier-2x2 ] && progress="--progress fair"
  (cd "$kdir" && "$lc" --termination $progress "$name.cu" 2>/dev/null) | grep '^Termination' >"$tmp/src"
  (cd "$kdir" && "$lc" --via nvcc --termination $progress "$name.cu" 2>/dev/null) | grep '^Termination' >"$tmp/ptx"
  if [ -s "$tmp/src" ] && cmp -s "$tmp/src" "$tmp/ptx"; then ok "$name: $(cat "$tmp/ptx") at both levels"
  else bad "$name: termination '$(cat "$tmp/src")' at source level, '$(cat "$tmp/ptx")' through nvcc"; fi
done

# the kernels only the compiler route reads
while IFS=, read -r f opts want race; do
  (cd "$kdir/nvcc" && "$lc" --via nvcc $opts "$f" 2>/dev/null) >"$tmp/out"
  got=$(verdict "$tmp/out")
  if [ "$got" = "$want" ]; then ok "nvcc/$f $opts: verdict $want"; else bad "nvcc/$f $opts: verdict $got, expected $want"; fi
  if grep -q '^Flag data-race' "$tmp/out"; then flagged=1; else flagged=0; fi
  if [ "$flagged" = "$race" ]; then ok "nvcc/$f $opts: races $race"; else bad "nvcc/$f $opts: races $flagged, expected $race"; fi
done <"$vdir/verdicts.csv"
# each is refused by the source-level reader, or read with the verdict
# the compiled kernel has (semaphore-atomic-ref: a class the reader reads)
for f in "$kdir"/nvcc/*.cu; do
  b=$(basename "$f")
  "$lc" "$f" >"$tmp/out" 2>/dev/null
  rc=$?
  want=$(grep "^$b,," "$vdir/verdicts.csv" | cut -d, -f3)
  if [ $rc = 2 ]; then ok "$b: the source-level reader refuses it"
  elif [ $rc = 0 ] && [ "$(verdict "$tmp/out")" = "$want" ]; then ok "$b: the source-level reader reads it: verdict $want"
  else bad "$b: the source-level reader gives exit status $rc, verdict $(verdict "$tmp/out")"; fi
done
# the semaphore's waiting block may wait for ever for a block that never starts (obe)
(cd "$kdir/nvcc" && "$lc" --via nvcc --termination semaphore-atomic-ref.cu 2>/dev/null) >"$tmp/out"
grep -qx 'Termination: may not terminate (obe)' "$tmp/out" && ok "semaphore: may not terminate (obe)" ||
  bad "semaphore: $(grep Termination "$tmp/out")"
# the termination answers the kernels' comments derive: a waiting block
# may wait for ever for one that never starts (obe); a spinlock's holder
# and a one-CTA pipeline run on; a cluster's CTAs are co-scheduled (CUDA
# C++ Programming Guide, Thread Block Clusters), so one waiting for another
# of its cluster is waiting for a resident CTA
while IFS=, read -r f want; do
  (cd "$kdir/nvcc" && "$lc" --via nvcc --termination "$f" 2>/dev/null) >"$tmp/out"
  grep -qx "Termination: $want" "$tmp/out" && ok "$f: $want" || bad "$f: $(grep Termination "$tmp/out"), expected $want"
done <<'END'
atomic-device-mp.cu,may not terminate (obe)
lookback-policy.cu,may not terminate (obe)
atomic-flag-spinlock.cu,terminates (obe)
cutlass-pipeline.cu,terminates (obe)
cluster-barrier-exchange.cu,terminates (obe)
cluster-remote-arrive.cu,terminates (obe)
dsmem-cluster.cu,terminates (obe)
END

# what cannot be followed: one error, naming the PTX line and the source line
check_error() {   # FILE LINE WHAT
  (cd "$vdir/errors" && "$lc" --via nvcc "$1") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  n=$(grep -c ': error: ' "$tmp/err")
  if [ $rc = 2 ] && [ "$n" = 1 ] && grep -qE "^$1:$2:1: error: nvcc's PTX line [0-9]+ \\(source line $2[,)].*$3" "$tmp/err"; then
    ok "$1: $(grep ': error: ' "$tmp/err" | cut -c1-100)"
  else
    bad "$1: exit status $rc, $n errors:"; cat "$tmp/err"
  fi
}
check_error indirect-call.cu 16 'an indirect call'
check_error unresolvable-address.cu 8 'a value read from memory'
check_error number-address.cu 8 'it is a number, not an address'
check_error local-array.cu 9 'local memory \(st\.local'
check_error vector-access.cu 7 'a vector access'
check_error float-access.cu 8 'a floating-point access \(ld\.global\.f32\)'
check_error float-param.cu 9 'floating-point arithmetic \(add\.f32\)'
check_error warp-vote.cu 8 'the warp-level vote\.sync\.ballot'
check_error trap.cu 8 'trap is not modelled'
check_error recursion.cu 9 'calls nested more than 8 deep'
check_error long-unroll.cu 9 'more than 8000 instructions'
# more threads than a test has: one error at the launch, before the PTX
(cd "$vdir/errors" && "$lc" --via nvcc too-many-threads.cu) >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(grep -c ': error: ' "$tmp/err")" = 1 ] &&
  grep -q '^too-many-threads.cu:3:1: error: a launch of 2048 threads: at most 1024 are checked' "$tmp/err" &&
  ok "too-many-threads.cu: one error at the launch" || { bad "too-many-threads.cu: exit status $rc"; cat "$tmp/err"; }
# a wait left as written (counting_semaphore<S, 2>::acquire: acquire loads
# of the word around relaxed polls): the paths it makes, named at the wait
check_error counting-semaphore.cu 14 'a blocking wait .* poll by poll'
# libcu++'s blocking waits (binary_semaphore::acquire, atomic::wait,
# atomic_ref::wait, latch::arrive_and_wait): 16 polls unrolled, then a
# back-off loop on %globaltimer, each made one spin loop (above: their
# verdicts and races; here the termination their comments derive, and the
# cost: each well under the seconds nvcc takes, where the polls followed
# one by one were more than 4096 paths, or 2.4 GB and most of a minute)
while IFS=, read -r f opts want; do
  (cd "$kdir/nvcc" && "$lc" --via nvcc --termination $opts "$f" 2>/dev/null) >"$tmp/out"
  t=$(sed -n 's/^Time [^ ]* //p' "$tmp/out")
  if grep -qx "Termination: $want" "$tmp/out" && [ -n "$t" ] && awk -v t="$t" 'BEGIN { exit !(t < 5) }'; then
    ok "$f $opts: $want, checked in $t s"
  else bad "$f $opts: $(grep Termination "$tmp/out"), Time $t; expected $want"; fi
done <<'END'
binary-semaphore.cu,-D ACQUIRE,terminates (obe)
atomic-wait-notify.cu,,may not terminate (obe)
atomic-ref-wait.cu,,may not terminate (obe)
latch-device.cu,,may not terminate (obe)
END

# the answer's level in JSON, and with -D the variant compiled
(cd "$kdir" && "$lc" --via nvcc --json mp-acq-rel.cu 2>/dev/null) >"$tmp/out"
grep -q '"level": *"PTX as compiled by nvcc [0-9.]* for sm_90, checked under PTX v8"' "$tmp/out" &&
  ok "--json names the level" || bad "--json: $(cat "$tmp/out" | cut -c1-200)"
(cd "$kdir" && "$lc" --via nvcc -D ACQ2RX caslock-macros.cu 2>/dev/null) >"$tmp/out"
[ "$(verdict "$tmp/out")" = 0 ] && ok "-D ACQ2RX is passed to nvcc: No" || bad "-D ACQ2RX: $(verdict "$tmp/out")"

# --via both: the two answers and what the compiled kernel adds
(cd "$kdir" && "$lc" --via both mp-acq-rel.cu 2>/dev/null) >"$tmp/out"
[ "$(grep -c '^Test mp ' "$tmp/out")" = 2 ] && grep -qx "Compiled: no outcome beyond the source's" "$tmp/out" &&
  ok "--via both: two blocks, no compilation finding" || { bad "--via both"; cat "$tmp/out"; }
# a racy kernel the compiler exploits: its read of the racy shared slot is
# folded to the value written (undefined behaviour lets it): fewer outcomes
(cd "$kdir" && "$lc" --via both syncthreads-missing.cu 2>/dev/null) >"$tmp/out"
grep -q '^Compiled: no outcome beyond the source.s (the compiled kernel allows fewer' "$tmp/out" &&
  ok "--via both: a strengthened kernel" || { bad "--via both (strengthened)"; cat "$tmp/out"; }
# .func bodies called with call.uni, inlined; a TMA store ordered by
# fence.proxy.async (without it the copy's read races with the store);
# loaded values at PTX's widths (an arithmetic shift, cvt to 32 bits); a
# spin loop on flag[i] in a loop over i (read with the plain widening bound)
while IFS=, read -r f opts want race; do
  (cd "$vdir" && "$lc" --via nvcc $opts "$f" 2>/dev/null) >"$tmp/out"
  got=$(verdict "$tmp/out")
  if grep -q '^Flag data-race' "$tmp/out"; then flagged=1; else flagged=0; fi
  if [ "$got" = "$want" ] && [ "$flagged" = "$race" ]; then ok "$f $opts: verdict $want, races $race"
  else bad "$f $opts: verdict $got, races $flagged; expected $want, $race"; fi
done <<'END'
noinline-calls.cu,,1,0
tma-store.cu,,1,0
tma-store.cu,-D NO_FENCE,0,1
narrowing.cu,,1,0
spin-per-index.cu,,1,0
narrow.cu,,1,0
select-slot.cu,,1,0
launch-4x256.cu,,1,0
cluster-no-dims.cu,,1,0
grid-sync-rounds.cu,,1,0
grid-sync-rounds.cu,-D NO_SECOND_SYNC,0,1
END
# cooperative groups' grid barrier read as the test's grid.sync, the
# barrier word's spin loops gone (grid-sync-loop: four per thread, six in
# grid-sync-rounds)
for f in "$kdir/grid-sync-loop.cu" "$vdir/grid-sync-rounds.cu"; do
  "$lc" --via nvcc --print "$f" >"$tmp/out" 2>&1
  n=$(grep -o 'grid\.sync' "$tmp/out" | wc -l)
  if [ "$n" -gt 0 ] && ! grep -q '__grid_workspace\|bar\.sync\|barrier\.sync' "$tmp/out"; then
    ok "$(basename "$f"): $n grid.sync in the test, no spin loop on the barrier word"
  else bad "$(basename "$f"): the grid's barrier not read as grid.sync"; fi
done
# the clusters: the launch's for a kernel without __cluster_dims__ (above:
# cluster-no-dims), the kernel's for a launch that names none, an error
# when the two differ
(cd "$kdir/nvcc" && "$lc" --via nvcc --launch '<<<2, 1>>>' dsmem-cluster.cu 2>/dev/null) >"$tmp/out"
[ "$(verdict "$tmp/out")" = 1 ] &&
  ok "dsmem-cluster launched without cluster(): the kernel's __cluster_dims__" || bad "dsmem-cluster <<<2, 1>>>: $(verdict "$tmp/out")"
(cd "$kdir/nvcc" && "$lc" --via nvcc --launch '<<<4, 1>>> cluster(4)' dsmem-cluster.cu) >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && grep -q "is not the kernel's __cluster_dims__(2, 1, 1)" "$tmp/err" &&
  ok "a launch's cluster other than the kernel's: an error" || { bad "cluster mismatch"; cat "$tmp/err"; }
# the same kernels at source level (select-slot, launch-4x256: the same
# states; narrow's pointer cast the source-level reader refuses)
for f in select-slot.cu launch-4x256.cu; do
  (cd "$vdir" && "$lc" "$f" 2>/dev/null) | grep -v '^Time' >"$tmp/src"
  (cd "$vdir" && "$lc" --via nvcc "$f" 2>/dev/null) | grep -v '^Time\|^Level' >"$tmp/ptx"
  cmp -s "$tmp/src" "$tmp/ptx" && ok "$f: the same block at both levels" || { bad "$f: the levels differ"; diff "$tmp/src" "$tmp/ptx"; }
done
# a launch without the dynamic shared memory an extern __shared__ array needs: one error
(cd "$kdir" && "$lc" --via nvcc --launch '<<<2, 2>>>' extern-shared.cu) >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && [ "$(grep -c 'error:' "$tmp/err")" = 1 ] && grep -q "sized by the launch's dynamic shared memory" "$tmp/err" &&
  ok "extern __shared__ without the launch's size: one error" || { bad "extern __shared__ without a size"; cat "$tmp/err"; }

# NVRTC with the C library's headers it lacks (<cassert>, <cstdio>,
# <cstdint>): an assert that holds, one that fails; and the kernels with
# assert() of litmus/kernels/ through NVRTC
for v in nvrtc nvcc; do
  (cd "$vdir" && "$lc" --via $v c-headers.cu 2>/dev/null) >"$tmp/out"
  (cd "$vdir" && "$lc" --via $v --input 'in = {4}; out = {0}' c-headers.cu 2>/dev/null) >"$tmp/out2"
  [ "$(verdict "$tmp/out")" = 1 ] && [ "$(verdict "$tmp/out2")" = 0 ] && ok "c-headers.cu --via $v: Ok, and No when the assert fails" ||
    bad "c-headers.cu --via $v: $(verdict "$tmp/out"), $(verdict "$tmp/out2")"
done
for f in assert-mp.cu assert-mp-relaxed.cu; do
  want=$(grep "^$f," "$top_srcdir/tests/e2e/kernels/verdicts.csv" | cut -d, -f2)
  (cd "$kdir" && "$lc" --via nvrtc "$f" 2>/dev/null) >"$tmp/out"
  [ "$(verdict "$tmp/out")" = "$want" ] && ok "$f --via nvrtc: verdict $want" || bad "$f --via nvrtc: $(verdict "$tmp/out"), expected $want"
done

# the blocking waits through NVRTC (the toolkit's headers): its PTX's waits
# made one spin loop too
while IFS=, read -r f opts want; do
  (cd "$kdir/nvcc" && "$lc" --via nvrtc $opts "$f" 2>/dev/null) >"$tmp/out"
  [ "$(verdict "$tmp/out")" = "$want" ] && ok "$f $opts --via nvrtc: verdict $want" ||
    bad "$f $opts --via nvrtc: $(verdict "$tmp/out"), expected $want"
done <<'END'
binary-semaphore.cu,-D ACQUIRE,1
atomic-wait-notify.cu,,1
atomic-wait-notify.cu,-D RELAXED,0
atomic-ref-wait.cu,,1
latch-device.cu,,1
END

# load buffering: allowed by PTX, forbidden by cuda-cpp's no-thin-air axiom alone
(cd "$vdir" && "$lc" --via both lb-relaxed.cu 2>/dev/null) >"$tmp/out"
grep -q '^Models differ: the compiled kernel allows r=1; r\[1\]=1, which cuda-cpp forbids by its no-thin-air axiom' "$tmp/out" &&
  grep -qx 'Compiled: 0 compilation findings, 1 outcome of load buffering' "$tmp/out" &&
  ok "--via both: load buffering named as the models' difference" || { bad "--via both (load buffering)"; cat "$tmp/out"; }

# --via both on the libcu++ kernels the source-level reader reads too: the
# same verdict; a counter at block scope used by two blocks is undefined
# behaviour at source level, and what the compiled kernel adds to it (both
# fetch_adds reading 0: out=-1) is the behaviour's, not a compilation finding
for k in atomic-device-mp.cu atomic-ref-last-block.cu; do
  (cd "$kdir/nvcc" && "$lc" --via both "$k" 2>/dev/null) >"$tmp/out"
  [ "$(grep -cx Ok "$tmp/out")" = 2 ] && grep -qx "Compiled: no outcome beyond the source's" "$tmp/out" &&
    ok "$k --via both: Ok at both levels" || { bad "$k --via both"; cat "$tmp/out"; }
done
(cd "$kdir/nvcc" && "$lc" --via both -D BLOCK_SCOPE atomic-ref-last-block.cu 2>/dev/null) >"$tmp/out"
grep -q '^Undefined behaviour: the compiled kernel allows out=-1, which the source.s outcomes do not include' "$tmp/out" &&
  grep -qx 'Compiled: 0 compilation findings, 0 outcomes of load buffering, 1 of the source.s undefined behaviour' "$tmp/out" &&
  ! grep -q '^Compilation finding' "$tmp/out" &&
  ok "--via both: a block-scope counter's extra outcome is the source's undefined behaviour" ||
  { bad "--via both (undefined behaviour)"; cat "$tmp/out"; }
# a flag's line is printed once: nvcc's PTX of a block-scope latch has the
# same instructions at two places of one source line, whose pairs printed
# alike twice; the pairs that differ (each thread's atom against the
# other's ld.acquire) stay, in the text and in JSON
(cd "$kdir/nvcc" && "$lc" --via nvcc -D BLOCK_SCOPE latch-device.cu 2>/dev/null) | grep '^Flag ' >"$tmp/out"
acq='ld.acquire.cta.global.b64 r11, \[bar\]' atom='atom.release.cta.global.add.u64 r10, \[bar\], -1'
[ -z "$(sort "$tmp/out" | uniq -d)" ] &&
  grep -q "^Flag data-race: P0 line 38: $atom and P1 line 38: $acq\$" "$tmp/out" &&
  grep -q "^Flag data-race: P0 line 38: $acq and P1 line 38: $atom\$" "$tmp/out" &&
  ok "latch-device.cu -D BLOCK_SCOPE --via nvcc: each flag line once, the differing pairs kept" ||
  { bad "latch-device.cu -D BLOCK_SCOPE --via nvcc: flag lines"; cat "$tmp/out"; }
(cd "$kdir/nvcc" && "$lc" --via nvcc --json -D BLOCK_SCOPE latch-device.cu 2>/dev/null) |
  jq -c '.flags[] | .pairs[]? | map([.thread, .line, .instruction])' >"$tmp/json"
[ -s "$tmp/json" ] && [ -z "$(sort "$tmp/json" | uniq -d)" ] &&
  [ "$(wc -l <"$tmp/json")" = "$(wc -l <"$tmp/out")" ] &&
  ok "latch-device.cu -D BLOCK_SCOPE --via nvcc --json: the pairs of the text, once each" ||
  { bad "latch-device.cu -D BLOCK_SCOPE --via nvcc --json: pairs"; cat "$tmp/json"; }
# an array's element 0 is x[0] at both levels (it was `out` in PTX), so
# that the two answers diff: the states and the condition of a kernel
# whose every location is an array
(cd "$kdir" && "$lc" grid-sync-mp.cu 2>/dev/null) | sed -n '/^States/,/^Condition/p' >"$tmp/src"
(cd "$kdir" && "$lc" --via nvcc grid-sync-mp.cu 2>/dev/null) | sed -n '/^States/,/^Condition/p' >"$tmp/out"
grep -qx 'out\[0\]=2; out\[1\]=1;' "$tmp/out" && grep -qx 'Condition forall (out\[0\] == 2 /\\ out\[1\] == 1)' "$tmp/out" &&
  diff "$tmp/src" "$tmp/out" >/dev/null &&
  ok "grid-sync-mp.cu --via nvcc: out[0] as the source-level check names it" ||
  { bad "grid-sync-mp.cu --via nvcc: element names"; diff "$tmp/src" "$tmp/out"; }
finish via

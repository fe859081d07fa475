#!/bin/sh
# kernels.sh - CUDA kernels as written (litmus/kernels/*.cu, docs/kernels.md):
# the verdict of each (tests/e2e/kernels/verdicts.csv) and whether it races
# (tests/e2e/kernels/races), both derived from the CUDA C++ memory model and
# written down before the tool ran; the whole output of each under both
# engines (tests/e2e/kernels/NAME.expected); -D variants; --termination
# under the default (obe) and fair progress; --print; --launch, --input and
# --output; every bad input in tests/e2e/kernels/errors/ (exit 2 and exactly
# its .expected-err).  `Time` lines are dropped.  PROMOTE=1 rewrites the
# expected outputs (the SMT engine's), never verdicts.csv or races.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/kernels"
make_tmp
filter() { grep -v '^Time '; }

# verdicts and races, from the model, not from promoted files
while IFS=, read -r f want; do
  (cd "$top_srcdir/litmus/kernels" && "$lc" "$f" 2>/dev/null) >"$tmp/out"
  got=x
  grep -qx Ok "$tmp/out" && got=1
  grep -qx No "$tmp/out" && got=0
  # a kernel no execution of which finishes has no verdict (its --expect
  # line keeps the vacuous one, as herd gives it): listed in unfinished
  if grep -qx "$f" "$dir/unfinished"; then
    if grep -qx 'No verdict: no execution finishes' "$tmp/out" && [ $got = x ]; then ok "$f: no execution finishes"
    else bad "$f: an execution finishes, or a verdict is given"; fi
  elif [ "$got" = "$want" ]; then ok "$f: verdict $want"; else bad "$f: verdict $got, expected $want"; fi
  if grep -qx "$f" "$dir/races"; then racy=1; else racy=0; fi
  if grep -q '^Flag undefined-behaviour' "$tmp/out"; then flagged=1; else flagged=0; fi
  if [ "$racy" = "$flagged" ]; then ok "$f: races $racy"; else bad "$f: races $flagged, expected $racy"; fi
done <"$dir/verdicts.csv"
n=$(ls "$top_srcdir"/litmus/kernels/*.cu | wc -l)
[ "$n" = "$(wc -l <"$dir/verdicts.csv")" ] && ok "every kernel has a verdict" || bad "$n kernels, $(wc -l <"$dir/verdicts.csv") verdicts"

# whole outputs under the default engine; a kernel without loops also under
# the other engine (spin loops unrolled make the SMT encoding slow: the
# default engine takes the explicit one for them, README "Two engines")
for t in "$top_srcdir"/litmus/kernels/*.cu; do
  name=$(basename "$t" .cu)
  engines=auto
  grep -qE '\<(while|for|do)\>' "$t" || engines="auto smt enum"
  for engine in $engines; do
    keep=; [ $engine != auto ] && keep=keep
    (cd "$top_srcdir" && "$lc" --engine $engine "litmus/kernels/$name.cu" 2>&1) | filter >"$tmp/out"
    check_whole "$dir/$name.expected" "$tmp/out" "$name (--engine $engine)" $keep
  done
done

# -D: the variants of caslock-macros.cu
for d in ACQ2RX REL2RX DV2WG; do
  (cd "$top_srcdir" && "$lc" -D "$d" litmus/kernels/caslock-macros.cu 2>&1) | filter >"$tmp/out"
  check_whole "$dir/caslock-macros.$d.expected" "$tmp/out" "caslock-macros.cu -D $d"
done

# --termination: blocks scheduled as CUDA documents it (obe) unless --progress says
# (barrier-2x2 under obe takes half a minute: under fair only, here)
for name in deadlock barrier-2x2 caslock mp-acq-rel; do
  if [ $name != barrier-2x2 ]; then
    (cd "$top_srcdir" && "$lc" --termination "litmus/kernels/$name.cu" 2>&1) | filter >"$tmp/out"
    check_whole "$dir/$name.term.expected" "$tmp/out" "$name --termination"
  fi
  (cd "$top_srcdir" && "$lc" --termination --progress fair "litmus/kernels/$name.cu" 2>&1) | filter >"$tmp/out"
  check_whole "$dir/$name.fair.expected" "$tmp/out" "$name --termination --progress fair"
done

# the grid's barrier and cooperative launches: every block resident, so under
# obe no block waits to start (grid-sync-mp, barrier-2x1-cooperative: terminates);
# a block that skips grid.sync() leaves the others waiting (grid-sync-divergent);
# the same spin barrier launched as usual may not terminate
for name in grid-sync-mp grid-sync-divergent barrier-2x1-cooperative; do
  (cd "$top_srcdir" && "$lc" --termination "litmus/kernels/$name.cu" 2>&1) | filter >"$tmp/out"
  check_whole "$dir/$name.term.expected" "$tmp/out" "$name --termination"
done
(cd "$top_srcdir" && "$lc" --termination --launch '<<<2, 1>>>' litmus/kernels/barrier-2x1-cooperative.cu 2>&1) |
  filter >"$tmp/out"
check_whole "$dir/barrier-2x1-cooperative.plain.expected" "$tmp/out" "barrier-2x1 launched as usual --termination"
for engine in smt enum; do
  (cd "$top_srcdir" && "$lc" --engine $engine --termination litmus/kernels/grid-sync-divergent.cu 2>&1) |
    filter | grep '^Termination' >"$tmp/out"
  echo 'Termination: may not terminate (obe)' >"$tmp/want"
  cmp -s "$tmp/out" "$tmp/want" && ok "grid-sync-divergent hangs (--engine $engine)" ||
    bad "grid-sync-divergent (--engine $engine): $(cat "$tmp/out")"
done
(cd "$top_srcdir" && "$lc" --print litmus/kernels/grid-sync-mp.cu 2>&1) >"$tmp/out"
check_whole "$dir/grid-sync-mp.print.expected" "$tmp/out" "grid-sync-mp --print"

(cd "$top_srcdir" && "$lc" --print litmus/kernels/syncthreads-and-or.cu 2>&1) >"$tmp/out"
check_whole "$dir/syncthreads-and-or.print.expected" "$tmp/out" "syncthreads-and-or --print"

# 512 threads at one barrier: the explicit engine walks its arrival choices
# without recursing per pair (it overflowed the stack)
(cd "$dir" && "$lc" --engine enum big-launch.cu 2>&1) | grep -x Ok >"$tmp/out"
[ -s "$tmp/out" ] && ok "big-launch.cu: 512 threads at a barrier" || bad "big-launch.cu: no Ok"

# --print: the threads the launch makes
(cd "$top_srcdir" && "$lc" --print litmus/kernels/barrier-2x2.cu 2>&1) >"$tmp/out"
check_whole "$dir/barrier-2x2.print.expected" "$tmp/out" "barrier-2x2 --print"

# the header on the command line
(cd "$top_srcdir" && "$lc" --launch '<<<dim3(2, 1, 1), dim3(1, 1, 1)>>>' --input 'flag = 0; data = {7}; r = {-1}' \
  --output 'exists (r[0] == 7)' litmus/kernels/mp-acq-rel.cu 2>&1) | filter >"$tmp/out"
check_whole "$dir/mp-acq-rel.options.expected" "$tmp/out" "--launch, --input, --output"

# a folder finds the kernels beside litmus tests
(cd "$top_srcdir" && "$lc" -q --expect tests/e2e/kernels/verdicts.csv litmus/kernels 2>&1) | grep -c '^mismatch' >"$tmp/out"
[ "$(cat "$tmp/out")" = 0 ] && ok "a folder of kernels" || bad "a folder of kernels: $(cat "$tmp/out") mismatches"

# the target: NV_IF_TARGET and __CUDA_ARCH__ follow --sm
for sm in 70 90; do
  (cd "$dir" && "$lc" --sm $sm nv-target.cu 2>&1) | filter >"$tmp/out"
  check_whole "$dir/nv-target.sm$sm.expected" "$tmp/out" "nv-target.cu --sm $sm"
done

# objects, pointers and references (the whole outputs and the threads written)
for name in objects pointers template-calls; do
  (cd "$dir" && "$lc" $name.cu 2>&1) | filter >"$tmp/out"
  check_whole "$dir/$name.expected" "$tmp/out" "$name.cu"
  (cd "$dir" && "$lc" --print $name.cu 2>&1) >"$tmp/out"
  check_whole "$dir/$name.print.expected" "$tmp/out" "$name.cu --print"
done

# a template kernel instantiated by --kernel NAME<ARGS>
(cd "$dir/errors" && "$lc" --kernel 'k<3>' template.cu 2>&1) | filter >"$tmp/out"
check_whole "$dir/template.k3.expected" "$tmp/out" "template.cu --kernel 'k<3>'"

# an index past the end of an @Input array
cd "$dir" || exit 99
check_run "out-of-bounds.cu" 2 "$dir/out-of-bounds.expected-err" "$lc" out-of-bounds.cu

# bad input: one error naming file:line:col, exit 2
cd "$dir/errors" || exit 99
for f in *.cu; do
  "$lc" --print "$f" >"$tmp/out" 2>"$tmp/err"
  status=$?
  [ "${PROMOTE:-0}" = 1 ] && cp "$tmp/err" "$f.expected-err"
  if [ "$status" -ne 2 ]; then bad "$f: exit status $status, expected 2"
  elif [ -s "$tmp/out" ]; then bad "$f: printed something on stdout"
  else check_whole "$f.expected-err" "$tmp/err" "$f"
  fi
done
finish kernels

#!/bin/sh
# run-term.sh - litmus-run and tests that may hang, on the host backend:
#   litmus/spin/Wait-never and Bar-quorum-never hang in every instance; the
#     run reports them hung, with the model's witness (whole outputs, less
#     the lines of the machine and the timing);
#   a hang under a model that says the test terminates (run-term/no-last.cat,
#     wrong on purpose) is a finding: "!!!", exit 1;
#   barriers with no thread count met in opposite orders, or met by a thread
#     that first spins on a flag set after the barrier: every instance hangs,
#     and the model says so too (no finding);
#   a loop that writes forever (run-term/Exch-forever) cannot be proved
#     stuck: its instances are cut and the watchdog ends the run in seconds;
#   the CAS spinlocks terminate and nothing hangs;
#   the corpus' XF-Barrier-weak (when ../shared is there) runs to its end.
set -u
. "$(dirname "$0")/lib.sh"
source_models
run=$lr
make_tmp
cd "$top_srcdir" || exit 99
exp=tests/e2e/run-term

# A long watchdog: a thread descheduled for a second on a loaded machine
# must not turn a hang into a cut.  The lines that depend on the machine
# and the timing go.
stable() { grep -v -e '^Machine ' -e '^Instances ' -e '^Time ' -e '^Note .* CPUs' "$1"; }

whole() {   # name expected-status args...
  name=$1 want=$2
  shift 2
  "$run" -q -b host -n 2 -i 100 -s 7 --watchdog 30 "$@" > "$tmp/$name.raw" 2> "$tmp/$name.err"
  rc=$?
  stable "$tmp/$name.raw" > "$tmp/$name.out"
  if [ $rc -eq "$want" ] && compare_whole "$exp/$name.out" "$tmp/$name.out"; then
    ok "$name (exit $rc)"
  else
    cat "$tmp/$name.err"; bad "$name: exit $rc (want $want)"
  fi
}

whole Wait-never 0 litmus/spin/Wait-never.litmus
whole Bar-quorum-never 0 litmus/spin/Bar-quorum-never.litmus

# A hang the model says cannot happen is a finding: the first line after
# the test's, and exit 1.  (How many of the instances miss the 1 and hang
# depends on the timing; most do.)
"$run" -q -b host -n 2 -i 100 -s 7 --watchdog 30 --model "$exp/no-last.cat" "$exp/Miss-never.litmus" > "$tmp/miss" 2> "$tmp/miss.err"
rc=$?
if [ $rc -eq 1 ] && [ "$(sed -n 2p "$tmp/miss" | sed 's/ [0-9]* instances\{0,1\},/ N instances,/')" = \
     '!!! Miss-never: the CPU hung in N instances, but no-last says the test always terminates' ] &&
   grep -q '^Hung Miss-never [0-9]* (.*); the model says it always terminates$' "$tmp/miss" &&
   grep -q '^Termination Miss-never terminates$' "$tmp/miss"; then
  ok "a hang the model says cannot happen: reported, exit 1"
else
  cat "$tmp/miss" "$tmp/miss.err"; bad "Miss-never under no-last.cat: exit $rc"
fi

# Deadlocks at bar.cta.sync with no thread count: barriers met in opposite
# orders, and a thread spinning before the barrier on a flag set after it.
# The host hangs in every instance and the model says the test may hang.
for t in "$exp/Bar-crossed.litmus" tests/e2e/termination/bar-never-reached.litmus; do
  name=$(basename "$t" .litmus)
  "$run" -q -b host -n 1 -i 50 -s 7 --watchdog 30 "$t" > "$tmp/crossed" 2>/dev/null
  rc=$?
  if [ $rc -eq 0 ] && grep -q "^Hung $name 50 (.*); the model says it may hang\$" "$tmp/crossed" &&
     grep -q "^Termination $name may not terminate: P0 waits forever at barrier 0 " "$tmp/crossed" &&
     ! grep -q '^!!!' "$tmp/crossed"; then
    ok "$name: hung, as the model says it may"
  else
    cat "$tmp/crossed"; bad "$name: exit $rc"
  fi
done

# JSON: hung and cut apart, the model's verdict and witness.
"$run" -q -b host -n 1 -i 50 -s 7 --watchdog 30 --json litmus/spin/Wait-never.litmus > "$tmp/json" 2>/dev/null
if grep -q '"incomplete":50,"hung":50,"cut":0,"halted":false,"termination":{"verdict":"may not terminate","witness":"P0 spins in the loop back to LC00 (line 12), its last iteration reading f=0; P1 finished; final memory: x=1, f=0","unexpected_hangs":0}' "$tmp/json"; then
  ok "--json: hung, cut, termination"
else
  cat "$tmp/json"; bad "--json: hung, cut, termination"
fi

# A loop that writes forever: cut, and the watchdog halts the run.
t0=$(date +%s)
"$run" -q -b host -t 60 -s 7 --watchdog 0.2 "$exp/Exch-forever.litmus" > "$tmp/exch" 2> "$tmp/exch.err"
rc=$? secs=$(( $(date +%s) - t0 ))
if [ $rc -eq 0 ] && [ $secs -le 10 ] && grep -q '^Cut Exch-forever [0-9]* (instances stopped at --spin-limit 1000000 or after --watchdog 0.2 s; not in the histogram)$' "$tmp/exch" &&
   grep -q '^Halted Exch-forever: cut instances spun for 3 watchdogs in all; the run stopped early$' "$tmp/exch" &&
   grep -q '^Termination Exch-forever ' "$tmp/exch" && ! grep -q '^Hung' "$tmp/exch"; then
  ok "a loop that writes forever: cut, halted by the watchdog in ${secs} s"
else
  cat "$tmp/exch" "$tmp/exch.err"; bad "Exch-forever: exit $rc after ${secs} s"
fi

# The spinlocks terminate: no instance hangs.
for t in litmus/spin/SL-cas+acq-rel.litmus litmus/spin/SL-cas+rlx.litmus; do
  n=$(basename "$t" .litmus)
  "$run" -q -b host -n 2 -i 200 -s 7 --watchdog 30 "$t" > "$tmp/sl" 2>/dev/null
  rc=$?
  if [ $rc -eq 0 ] && grep -q "^Termination $n terminates\$" "$tmp/sl" && ! grep -q '^Hung\|^Cut\|^!!!' "$tmp/sl"; then
    ok "$n: terminates, nothing hung"
  else
    cat "$tmp/sl"; bad "$n: exit $rc"
  fi
done

# The unroll bound's warning: the loop, and the bound that explores it all.
"$run" -q -b host -n 1 -i 10 -s 7 tests/e2e/regress/loop-count.litmus > /dev/null 2> "$tmp/warn"
want="litmus-run: tests/e2e/regress/loop-count.litmus: warning: some executions need more loop iterations than --unroll 2 allows (P0 loop LC00 (line 13)); outcomes only they reach are marked '?'; --unroll 3 explores them all"
if [ "$(cat "$tmp/warn")" = "$want" ]; then
  ok "the unroll bound's warning"
else
  cat "$tmp/warn"; bad "the unroll bound's warning"
fi

xf=../shared/dat3m-ptx/litmus/PTX/Manual/XF-Barrier-weak.litmus
if [ -f "$xf" ]; then
  "$run" -q -b host -n 2 -i 200 -s 7 "$xf" > "$tmp/xf" 2>/dev/null
  rc=$?
  if [ $rc -eq 0 ] && grep -q '^Termination XF-Barrier-weak may not terminate: P0 finished; P1 spins in the loop back to LC10' "$tmp/xf"; then
    ok "XF-Barrier-weak: runs to its end, the model's possible hang reported"
  else
    cat "$tmp/xf"; bad "XF-Barrier-weak: exit $rc"
  fi
else
  echo "skip: $xf not there (../shared)"
fi
finish run-term

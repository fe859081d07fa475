#!/bin/sh
# hard-timeout.sh - --timeout bounds a test even where the engine does not
# poll the deadline.  Z3 takes minutes (over 30 s on a 2-core VM) to take in
# the encoding of timeout/spin-1-220.litmus and nothing interrupts it, so a
# run of it under --engine smt --timeout 1 that ends within 3 s, with the
# message that names no phase (the engines' own say "while ..."), was killed
# by the parent (src/base/isolate.c).  Then: a batch of a good test, a test that
# does not parse and that one prints what it prints without the timed-out
# test, in the order given, plus that test's line (or JSON record), with any
# --jobs.  And lowering that runs out gives the "unknown" JSON record too.
# Whole outputs against timeout/*.expected*; `Time` lines and JSON
# seconds dropped.  PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$abs_top_srcdir" || exit 99
dir=tests/e2e/timeout
good=litmus/MP.litmus bad=tests/e2e/errors/acquire-store.litmus slow=$dir/spin-1-220.litmus

# run NAME ARGS...: litmus-check ARGS, timed (lib.sh); its stdout is in
# $tmp/NAME.raw, and in $tmp/NAME.out without Time lines nor seconds
run() {
  _n=$1; shift
  timed "$_n" "$lc" "$@"
  mv "$tmp/$_n.out" "$tmp/$_n.raw"
  grep -v '^Time ' "$tmp/$_n.raw" | sed 's/,"seconds":.*$/}/' >"$tmp/$_n.out"
}

# the hard kill, text and JSON
run text --engine smt --timeout 1 "$slow"
exit_was 3 "--timeout 1 $slow"
within 3 "--timeout 1 $slow"
check_whole "$dir/spin-1-220.expected-err" "$tmp/text.err" "--timeout 1 $slow: stderr"
[ -s "$tmp/text.out" ] && bad "--timeout 1 $slow: printed on stdout"

# lowering out of time: the "unknown" record an engine's timeout gives,
# with lowering's message (it was an "error" object)
run lowering --json --engine smt --timeout 0.000001 litmus/IRIW.litmus
exit_was 3 "--json --timeout 0.000001 litmus/IRIW.litmus"
check_whole "$dir/lowering.expected-json" "$tmp/lowering.out" "--json: lowering out of time: the record"

run json --json --engine smt --timeout 1 "$slow"
exit_was 3 "--json --timeout 1 $slow"
within 3 "--json --timeout 1 $slow"
check_whole "$dir/spin-1-220.expected-json" "$tmp/json.out" "--json --timeout 1 $slow: the record"
[ -s "$tmp/json.err" ] && bad "--json --timeout 1 $slow: printed on stderr"

# a mixed batch: as without the slow test (no --timeout: no child
# processes), plus its line
for mode in text json; do
  flag=""
  [ $mode = json ] && flag=--json
  run plain $flag --engine smt "$good" "$bad"
  exit_was 2 "$mode: $good $bad"
  # one job, the slow test last; three, the slow test first (printed
  # first, though it ends last)
  for jobs in 1 3; do
    if [ $jobs = 1 ]; then set -- "$good" "$bad" "$slow"; else set -- "$slow" "$good" "$bad"; fi
    what="$mode: -j $jobs --timeout 1 $*"
    run mixed $flag -j $jobs --engine smt --timeout 1 "$@"
    exit_was 3 "$what"
    within 3 "$what"
    slow_out=/dev/null slow_err=$dir/spin-1-220.expected-err
    [ $mode = json ] && slow_out=$dir/spin-1-220.expected-json slow_err=/dev/null
    if [ $jobs = 1 ]; then
      cat "$tmp/plain.out" "$slow_out" >"$tmp/want.out"
      cat "$tmp/plain.err" "$slow_err" >"$tmp/want.err"
    else
      cat "$slow_out" "$tmp/plain.out" >"$tmp/want.out"
      cat "$slow_err" "$tmp/plain.err" >"$tmp/want.err"
    fi
    if compare_whole "$tmp/want.out" "$tmp/mixed.out" keep && compare_whole "$tmp/want.err" "$tmp/mixed.err" keep; then
      ok "$what: the output without it, plus its own"
    else
      bad "$what: not the output without it plus its own"
    fi
    check_whole "$dir/mixed-j$jobs.expected-$mode" "$tmp/mixed.out" "$what: stdout"
  done
done

finish "hard timeout"

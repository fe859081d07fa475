#!/bin/sh
# run-hard-timeout.sh - litmus-run's --timeout bounds the model check of a
# test even where the engine does not poll the deadline (src/run/run_model.c,
# as litmus-check's, hard-timeout.sh).  Z3 takes over 30 s on a 2-core VM
# to take in the encoding of timeout/spin-1-220.litmus and nothing
# interrupts it, so a run of it under --engine smt --timeout 1 that ends
# within 3 s, with the message that names no phase, was killed:
#   alone, text and --json: exit 3, that one line on stderr, nothing on
#     stdout (as a model check that runs out of time by itself);
#   between two tests, and in a campaign: the others run as without it.
# And a timeout not reached changes nothing: on classic tests (a C++ test
# and spinning ones among them: the termination question goes with the
# check) the model's part of the reports (the test, its allowed states,
# the Model line's count, Termination, the warnings) is the same with
# --timeout 60 as without, in text and in JSON, and --emit-cuda prints the
# same source.  Counts of outcomes are not compared: threads on a CPU do
# not repeat their timing.
set -u
. "$(dirname "$0")/lib.sh"
source_models
make_tmp
cd "$abs_top_srcdir" || exit 99
slow=tests/e2e/timeout/spin-1-220.litmus
msg="litmus-run: $slow: the model check failed: out of time (--timeout 1 s); no verdict"
fast="-q -b host -n 2 -i 50 -s 1 --watchdog 0.01"

# run NAME ARGS...: litmus-run ARGS, timed (lib.sh)
run() { _n=$1; shift; timed "$_n" "$lr" "$@"; }

# 1. the hard kill
for mode in text json; do
  flag=""
  [ $mode = json ] && flag=--json
  what="$mode: --engine smt --timeout 1 $slow"
  # shellcheck disable=SC2086  # $fast and $flag are lists of options
  run kill $fast $flag --engine smt --timeout 1 "$slow"
  exit_was 3 "$what"
  within 3 "$what"
  echo "$msg" >"$tmp/want.err"
  check_whole "$tmp/want.err" "$tmp/kill.err" "$what: stderr" keep
  [ -s "$tmp/kill.out" ] && bad "$what: printed on stdout"
done

# 2. between two tests: they run, in order, and the status is the worst
# shellcheck disable=SC2086
run batch $fast --json --engine smt --timeout 1 litmus/MP.litmus "$slow" litmus/SB.litmus
exit_was 3 "MP, the slow test, SB"
within 5 "MP, the slow test, SB"
tests=$(sed 's/^{"test":"\([^"]*\)".*/\1/' "$tmp/batch.out" | tr '\n' ' ')
[ "$tests" = "MP SB " ] && ok "MP, the slow test, SB: MP and SB ran" || bad "MP, the slow test, SB: ran '$tests'"
check_whole "$tmp/want.err" "$tmp/batch.err" "MP, the slow test, SB: stderr" keep

# 3. a campaign: the slow test's runs are not done, MP's are
# shellcheck disable=SC2086
run camp $fast --engine smt --timeout 1 --campaign "$tmp/camp.jsonl" --grid 'barrier=on,off' "$slow" litmus/MP.litmus
exit_was 3 "campaign"
within 5 "campaign"
n=$(grep -c '"test":"MP"' "$tmp/camp.jsonl")
[ "$n" = 2 ] && ok "campaign: MP's 2 runs done" || bad "campaign: MP has $n runs, not 2"
grep -q '"test":"spin-1-220"' "$tmp/camp.jsonl" && bad "campaign: a run of the slow test"
{ echo "$msg"; echo "litmus-run: $tmp/camp.jsonl: 2 of 4 runs done (partial: --resume goes on)"; } >"$tmp/want.err"
check_whole "$tmp/want.err" "$tmp/camp.err" "campaign: stderr" keep

# 4. a timeout not reached: the model's part of the reports is the same
classic="litmus/MP.litmus litmus/SB.litmus litmus/IRIW.litmus litmus/LB+data.litmus litmus/CoRR.litmus
  litmus/MP+bar.sync.litmus litmus/spin/Wait-never.litmus litmus/spin/SL-cas+rlx.litmus
  litmus/cuda-cpp/CAS-lock.litmus litmus/cuda-cpp/MP+rlx.litmus"

# model_text FILE: the test lines, its allowed states (observed or not,
# sorted), the Model line up to the count, Termination
model_text() {
  awk '/^Test /{print; never = 0}
       /^[0-9]+ +[^>]*>/{m = $0; sub(/^[0-9]+ +/, "", m); if (m !~ /^[^>]*[!?]/) { sub(/^[^>]*>/, "", m); print "allowed " m }}
       /^Never observed /{never = 1; next}
       never && /^  /{print "allowed " substr($0, 3); next}
       {never = 0}
       /^Model /{sub(/ allowed,.*/, " allowed"); print}
       /^Termination /{print}' "$1" | sort
}

# model_json FILE: each record's test, model (bar the counts of what was
# observed), termination and allowed states
model_json() {
  jq -S -c '{test, kind, observables, termination, model: (.model | del(.forbidden_outcomes, .forbidden_instances, .unexplored_outcomes)),
    allowed: ([.histogram[] | select(.allowed) | .values] + .unobserved_allowed | sort)}' "$1"
}

for mode in text json emit; do
  flag="" filter=model_text
  [ $mode = json ] && flag=--json filter=model_json
  [ $mode = emit ] && flag=--emit-cuda filter=cat
  if [ $filter = model_json ] && ! command -v jq >/dev/null 2>&1; then
    echo "note: no jq: the JSON reports are not compared"
    continue
  fi
  # shellcheck disable=SC2086
  run plain $fast $flag $classic
  rc_plain=$rc
  $filter "$tmp/plain.out" >"$tmp/plain.model"
  # shellcheck disable=SC2086
  run apart $fast $flag --timeout 60 $classic
  $filter "$tmp/apart.out" >"$tmp/apart.model"
  what="$mode: --timeout 60 not reached on $(echo $classic | wc -w) tests"
  [ "$rc" = "$rc_plain" ] && ok "$what: exit status $rc" || bad "$what: exit status $rc, $rc_plain without"
  [ -s "$tmp/plain.model" ] || bad "$what: no report"
  compare_whole "$tmp/plain.model" "$tmp/apart.model" keep && ok "$what: the model's part of the reports" ||
    bad "$what: the model's part of the reports differs"
  compare_whole "$tmp/plain.err" "$tmp/apart.err" keep && ok "$what: stderr" || bad "$what: stderr differs"
done

finish "litmus-run hard timeout"

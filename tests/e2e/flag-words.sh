#!/bin/sh
# flag-words.sh - what a flag's line says, and that it says it once.
#
# cross-read.cat is cuda-cpp.cat with `flag ~empty rfe as cross-read`, on
# litmus/cuda-cpp/MP+rlx-flag+na-data.litmus.  Expected by hand: the
# model's race (undefined-behaviour) on the two non-atomic accesses of
# data, with its reason; cross-read on each reads-from edge between
# threads of the three allowed executions (r0=0: flag's initial value;
# r0=1,r1=0: flag's store and data's initial value; r0=1,r1=42: data's
# store), sorted by event, each naming its two events and no reason: a
# flag that is not a race makes no claim about happens-before.  In JSON
# the race has a "reasons" array and cross-read none.  Both engines.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/flag-words"
make_tmp

mp="$top_srcdir/litmus/cuda-cpp/MP+rlx-flag+na-data.litmus"
for e in smt enum; do
  "$lc" -e $e --model "$dir/cross-read.cat" "$mp" 2>&1 | grep '^Flag ' >"$tmp/out"
  if [ $e = smt ]; then keep=; else keep=keep; fi
  check_whole "$dir/cross-read.expected" "$tmp/out" "cross-read flag lines (-e $e)" $keep
  "$lc" -e $e --json --model "$dir/cross-read.cat" "$mp" >"$tmp/json" 2>&1
  n=$(jq -r '[.flags[] | select(.name == "cross-read") | has("reasons")] | tostring' "$tmp/json")
  [ "$n" = '[false]' ] && ok "cross-read: no reasons in JSON (-e $e)" || bad "cross-read reasons in JSON: $n (-e $e)"
  n=$(jq -r '[.flags[] | select(.name == "undefined-behaviour") | .reasons | length] | tostring' "$tmp/json")
  [ "$n" = '[1]' ] && ok "undefined-behaviour: one reason in JSON (-e $e)" || bad "undefined-behaviour reasons: $n (-e $e)"
done

finish flag-words

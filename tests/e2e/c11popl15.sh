#!/bin/sh
# c11popl15.sh - a C11 model written as herdtools7's catalogue/c11popl15
# writes its models (scripts/c11popl15 runs the catalogue's own; this
# needs no herdtools7), from tests/e2e/c11popl15:
#   c11-base.cat   the shared part: let imm = singlestep (a function named
#       again), herd's former I, herd's stdlib subseteq called from the
#       model's procedures (the checks named after them: AtRMW, SCReads),
#       let rec rseq, with S from linearisations(SC, hb | mo);
#   c11-popl.cat, c11-arf.cat   it with the ConsRFna axiom or with Arf.
# The checks each model has (NAME.checks), and the whole outputs (Time
# lines left out, both engines) of five tests under each (NAME.expected):
# relaxed LB allowed (ConsRFna) and forbidden (Arf); two fetch_adds not
# both reading 0 (AtRMW over herd's one-event RMW); MP with release and
# acquire, no race; MP relaxed, flag Racy (under ConsRFna the racy read
# cannot read 1: its rf is not in hb); SB seq_cst forbidden (SCReads).
# herd7 61e77ef gives these states and flags (the model given `let I =
# IW`, which herd7 no longer predefines, and `include "cross.cat"`).
# PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/c11popl15"
make_tmp

for m in popl arf; do
  "$abs_top_builddir/tests/cat-load-check" "$dir/c11-$m.cat" >"$tmp/out" 2>&1
  check_whole "$dir/c11-$m.checks" "$tmp/out" "c11-$m.cat loads"
  : >"$tmp/all"
  for t in LB FAA2 MP-rel-acq MP-rlx SB-sc; do
    for e in enum smt; do
      echo "== $t, engine $e" >>"$tmp/all"
      "$lc" -e "$e" --model "$dir/c11-$m.cat" "$dir/$t.litmus" 2>&1 | grep -v '^Time ' >>"$tmp/all"
    done
  done
  check_whole "$dir/c11-$m.expected" "$tmp/all" "five tests under c11-$m.cat"
done
finish c11popl15

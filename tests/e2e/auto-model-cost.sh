#!/bin/sh
# auto-model-cost.sh - the engine --engine auto picks counts the model's
# cost too, by counts read from the model and the test (no timing), so
# the pick is the same on every machine:
#   herd's `with S from linearisations(SC, r)` (auto-model-cost/lin-sc.cat,
#   the shape of herd's c11_orig.cat): the explicit engine tries every
#   order of the seq_cst events for each execution, so from ~128 orders a
#   test goes to Z3 (sc-2x3: 70 orders, enum; sc-2x4: 252, smt; sc-5x1:
#   113,400, more than the explicit engine tries at all, smt; the same
#   with relaxed accesses, no order to try, enum), and both engines give
#   the same states;
#   a coherence order closed transitively (Dartagnan's `let co = co+`,
#   auto-model-cost/closed-co.cat over ptx-v7.5) on a spin loop whose
#   search space is 2^41 goes to Z3; under ptx-v7.5 itself it stays with
#   the explicit engine; so does three writers' six coherence orders with
#   a reader of two loads (w3, co_log2 4.2) under ptx-v7.5 and goes to Z3
#   under closed-co.cat;
#   unless a check reads a `let rec` fixpoint (auto-model-cost/
#   closed-co-rec.cat, the shape of Dartagnan's ptx-v6.0.cat: closed co
#   and `let rec observation`), which Z3 gets as rounds of its body: w3
#   stays with the explicit engine, and both engines give the same states.
# Each line of the table: MODEL TEST ENGINE-WANTED [same] (same: compare
# the states of both engines).
set -u
. "$(dirname "$0")/lib.sh"
source_models
dir=$abs_top_srcdir/tests/e2e/auto-model-cost
make_tmp

# The engine and the states of one run, from --json.
run() {   # engine model test
  "$lc" --json -e "$1" --model "$2" "$dir/$3.litmus" 2>/dev/null |
    awk '{ e = match($0, /"engine":"[a-z]*"/) ? substr($0, RSTART + 10, RLENGTH - 11) : "none"
           s = match($0, /"states":\[[^]]*\]/) ? substr($0, RSTART, RLENGTH) : "no states"
           print e; print s }'
}

while read -r model test want same; do
  case $model in *.cat) model=$dir/$model ;; esac
  run auto "$model" "$test" >"$tmp/auto"
  got=$(head -1 "$tmp/auto")
  if [ "$got" = "$want" ]; then ok "$(basename "$model") $test: auto picks $want"
  else bad "$(basename "$model") $test: auto picks $got, want $want"; fi
  [ "${same:-}" = same ] || continue
  other=enum
  [ "$want" = enum ] && other=smt
  run "$other" "$model" "$test" >"$tmp/other"
  if [ "$(sed -n 2p "$tmp/auto")" = "$(sed -n 2p "$tmp/other")" ] && ! grep -q '^no states' "$tmp/auto"
  then ok "$(basename "$model") $test: $other gives the same states"
  else bad "$(basename "$model") $test: $want and $other differ: $(sed -n 2p "$tmp/auto") / $(sed -n 2p "$tmp/other")"; fi
done <<'TABLE'
lin-sc.cat sc-2x3 enum same
lin-sc.cat sc-2x4 smt same
lin-sc.cat sc-5x1 smt
lin-sc.cat rlx-5x1 enum same
closed-co.cat spin-exch smt
ptx-v7.5 spin-exch enum
ptx-v7.5 w3 enum same
closed-co.cat w3 smt same
closed-co-rec.cat w3 enum same
TABLE
finish auto-model-cost

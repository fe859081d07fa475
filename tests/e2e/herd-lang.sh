#!/bin/sh
# herd-lang.sh - the constructs of herd's (and Dartagnan's) cat read beyond
# litmus-check's own language, with no herd needed:
#   tests/e2e/herd-lang/herd-lang.cat   try ... with, {}, if "variant" in an
#       expression (with not), functions joined by and, generate_orders(S, R)
#       for a set S, assert (a flag), catdep, toid, LS/UL, coe/coi/fre/fri,
#       Dartagnan's syncbar and ALIAS; its checks against herd-lang.checks
#       and its whole output (both engines, Time lines left out) on SB
#       against SB.expected: sequential consistency, three outcomes, the
#       assertion on rf raised;
#   tests/e2e/herd-lang/dartagnan-ptx.cat   Dartagnan's PTX names (sync_fence
#       with its check sync_fence-total, syncbar, ALIAS, F with the proxy
#       fences): its checks against dartagnan-ptx.checks, and the
#       Observation lines of SB with fence.sc at GPU scope (forbidden), at
#       CTA scope in two CTAs and without fences (allowed), both engines,
#       against dartagnan-ptx.expected;
#   tests/e2e/herd-lang/herd-more.cat   `#` and `/* */` comments, `^ -1`,
#       `let rec ... when CHECK`, a check
#       name used twice (both apply), negated checks (~empty, ~acyclic,
#       ~irreflexive), herd's and Dartagnan's names that are empty or
#       simple here (rf-reg, iico_*, X, sm, si, amo, NAL, ...): its checks
#       against herd-more.checks, and SB (SC less the outcome in which no
#       read sees an initial write: 0:1 and 1:0) and MP-na (the NAL flag
#       raised for the int* location) against herd-more.expected.
#   tests/e2e/herd-lang/orders.cat   generate_orders(W & (A | IW), co0)
#       includes co0's pairs within its set only: MP-na (a non-atomic x)
#       has executions (none when the initial write of x had to precede
#       its non-atomic write in mo), and FAA2 (two fetch_adds) has no
#       execution: the model is herd's, read over herd's one-event RMW
#       (herd-onevent.sh), where rf^-1; mo relates an RMW that reads the
#       initial write to itself; herd7 gives States 0 too; against
#       orders.expected.
#   tests/e2e/herd-lang/co-closure.cat   `let co = co+`: the default
#       engine on litmus/spin/SL-cas+rlx.litmus (loops, coherence choices)
#       is Z3 with it and the explicit engine without it.
#   tests/e2e/herd-lang/rmw-event.cat   a check that takes an RMW event
#       for both a read and a write (simple-c11.cat's AtRMW): read over
#       herd's one-event RMW, no warning, FAA2 y=2 (herd7's states).
# PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/herd-lang"
make_tmp

"$abs_top_builddir/tests/cat-load-check" "$dir/herd-lang.cat" >"$tmp/out" 2>&1
check_whole "$dir/herd-lang.checks" "$tmp/out" "herd-lang.cat loads"

for e in enum smt; do
  "$lc" -e "$e" --model "$dir/herd-lang.cat" "$dir/SB.litmus" 2>&1 | grep -v '^Time ' >"$tmp/out"
  check_whole "$dir/SB.expected" "$tmp/out" "SB under herd-lang.cat, engine $e"
done

"$abs_top_builddir/tests/cat-load-check" "$dir/dartagnan-ptx.cat" >"$tmp/out" 2>&1
check_whole "$dir/dartagnan-ptx.checks" "$tmp/out" "dartagnan-ptx.cat loads"
: >"$tmp/obs"
for t in SB+fence.sc-gpu SB+fence.sc-cta+diff-cta SB; do
  for e in enum smt; do
    printf '%s: ' "$e" >>"$tmp/obs"
    "$lc" -e "$e" --model "$dir/dartagnan-ptx.cat" "$top_srcdir/litmus/$t.litmus" 2>&1 | grep '^Observation' >>"$tmp/obs"
  done
done
check_whole "$dir/dartagnan-ptx.expected" "$tmp/obs" "SB and fence.sc under dartagnan-ptx.cat"
"$abs_top_builddir/tests/cat-load-check" "$dir/herd-more.cat" >"$tmp/out" 2>&1
check_whole "$dir/herd-more.checks" "$tmp/out" "herd-more.cat loads"
: >"$tmp/more"
for t in SB MP-na; do
  for e in enum smt; do
    "$lc" -e "$e" --model "$dir/herd-more.cat" "$dir/$t.litmus" 2>&1 | grep -v '^Time ' >>"$tmp/more"
  done
done
check_whole "$dir/herd-more.expected" "$tmp/more" "SB and MP-na under herd-more.cat"
: >"$tmp/orders"
for e in enum smt; do
  for t in MP-na FAA2; do
    "$lc" -e "$e" --model "$dir/orders.cat" "$dir/$t.litmus" 2>&1 | grep -v '^Time ' >>"$tmp/orders"
  done
done
check_whole "$dir/orders.expected" "$tmp/orders" "MP-na under orders.cat"
# a herd model that takes an RMW event for both its read and its write
# (simple-c11.cat's AtRMW): herd's one-event view, herd7's states
"$lc" --model "$dir/rmw-event.cat" "$dir/FAA2.litmus" >"$tmp/out" 2>"$tmp/err"
got=$(sed -n '/^States/,/^Ok/p' "$tmp/out" | tr '\n' ' ')
if [ "$got" = "States 1 y=2; Ok " ] && [ ! -s "$tmp/err" ]; then ok "rmw-event.cat: FAA2 y=2, as herd7"
else bad "rmw-event.cat: $got"; cat "$tmp/err"; fi
"$lc" --model "$dir/orders.cat" "$dir/FAA2.litmus" >/dev/null 2>"$tmp/err"
grep -q "RMW events" "$tmp/err" && bad "orders.cat (no RMW): warned" || ok "orders.cat (no RMW): no warning"
engine_of() {   # MODEL: the engine --engine auto chose
  "$lc" --json --model "$1" "$top_srcdir/litmus/spin/SL-cas+rlx.litmus" 2>/dev/null |
    sed -n 's/.*"engine":"\([a-z]*\)".*/\1/p'
}
grep -v '^let co = co+$' "$dir/co-closure.cat" >"$tmp/co-plain.cat"
got="$(engine_of "$dir/co-closure.cat") $(engine_of "$tmp/co-plain.cat")"
if [ "$got" = "smt enum" ]; then ok "let co = co+ sends a spin test to Z3"; else bad "engines chosen with and without co+: $got (want smt enum)"; fi
finish herd-lang

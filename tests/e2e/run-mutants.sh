#!/bin/sh
# run-mutants.sh - litmus-run --mutants on the host backend: the weakened
# twins of a forbidden test whose weak outcome the model allows, each run,
# listed after the test (names and mutations are fixed; whether this CPU
# shows a weak outcome is not), a JSON line per test with --json, and the
# mutation score on stderr.  SB+fence.sc-gpu: each fence dropped, made
# acq_rel, or narrowed to .cta (allowed: the threads are in different CTAs).
. "$(dirname "$0")/lib.sh"
source_models
run=$lr
make_tmp
"$run" -q -b host -n 3 -i 500 -s 5 --mutants "$top_srcdir/litmus/SB+fence.sc-gpu.litmus" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/err"; bad "exit $rc"; }
sed -n '/^Mutants/,$p' "$tmp/out" | sed 's/): .*/)/' >"$tmp/list"
cat >"$tmp/want" <<'LIST'
Mutants SB+fence.sc-gpu: N of 6 showed their weak outcome
  SB+fence.sc-gpu+mut1 (P0 line 12: fence.sc.gpu dropped)
  SB+fence.sc-gpu+mut2 (P0 line 12: fence.sc.gpu made acq_rel)
  SB+fence.sc-gpu+mut3 (P0 line 12: fence.sc.gpu scope narrowed)
  SB+fence.sc-gpu+mut4 (P1 line 12: fence.sc.gpu dropped)
  SB+fence.sc-gpu+mut5 (P1 line 12: fence.sc.gpu made acq_rel)
  SB+fence.sc-gpu+mut6 (P1 line 12: fence.sc.gpu scope narrowed)
LIST
sed -i 's/^Mutants SB+fence.sc-gpu: [0-6] of 6/Mutants SB+fence.sc-gpu: N of 6/' "$tmp/list"
compare_whole "$tmp/want" "$tmp/list" keep || bad "the mutants of SB+fence.sc-gpu"
grep -Eq '^litmus-run: mutation score: [0-6] of 6 mutants showed their weak outcome$' "$tmp/err" ||
  { cat "$tmp/err"; bad "no mutation score"; }
# a ~exists test with no fence or strong access to weaken, and an exists test: no mutants
"$run" -q -b host -n 2 -i 200 -s 5 --mutants "$top_srcdir/litmus/CoWW.litmus" "$top_srcdir/litmus/SB.litmus" >"$tmp/out" 2>"$tmp/err"
grep -q '^Mutants' "$tmp/out" && bad "mutants of CoWW or SB"
grep -q 'mutation score: 0 of 0' "$tmp/err" || bad "score of no mutants"
if command -v jq >/dev/null 2>&1; then
  "$run" -q -b host -n 2 -i 200 -s 5 --json --mutants "$top_srcdir/litmus/SB+fence.sc-gpu.litmus" >"$tmp/json" 2>/dev/null
  [ "$(jq -s '.[1].mutants.total' "$tmp/json")" = 6 ] && [ "$(jq -s '.[1].mutants.list | length' "$tmp/json")" = 6 ] ||
    { cat "$tmp/json"; bad "JSON of the mutants"; }
  "$lcmp" "$tmp/json" "$tmp/json" >/dev/null || bad "litmus-compare on a --mutants file"
fi
[ $fail -eq 0 ] && ok "mutants of SB+fence.sc-gpu listed, scored, in JSON"
finish run-mutants

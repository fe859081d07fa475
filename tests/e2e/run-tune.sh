#!/bin/sh
# run-tune.sh - litmus-run --tune N on the host backend: N trials of a
# seeded random search (the same seed draws the same trials), the best
# written to --config FILE with the machine; --config FILE loads it, later
# options override it; --tune without --config and a bad config are refused.
. "$(dirname "$0")/lib.sh"
source_models
run=$lr
command -v jq >/dev/null 2>&1 || skip "jq is needed to read the config"
make_tmp
sb="$top_srcdir/litmus/SB.litmus"
"$run" -q -b host -n 2 -i 300 -s 11 --tune 3 --config "$tmp/a.json" "$sb" >"$tmp/out" 2>"$tmp/err" || bad "--tune: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || bad "--tune printed results"
[ "$(grep -c '^litmus-run: trial [1-3]: ' "$tmp/err")" -eq 3 ] || bad "not 3 trials: $(cat "$tmp/err")"
[ "$(jq -r '.trials, .backend, (.params | length)' "$tmp/a.json" | tr '\n' ' ')" = "3 host 13 " ] || bad "config: $(cat "$tmp/a.json")"
jq -e '.device | test("CPU")' "$tmp/a.json" >/dev/null || bad "config without the machine"
# the same seed draws the same trials
"$run" -q -b host -n 1 -i 100 -s 11 --tune 3 --config "$tmp/b.json" "$sb" 2>"$tmp/err2" >/dev/null
sed 's/^litmus-run: trial \([0-9]\): [^:]*: /\1 /' "$tmp/err" | grep '^[1-3] ' >"$tmp/t1"
sed 's/^litmus-run: trial \([0-9]\): [^:]*: /\1 /' "$tmp/err2" | grep '^[1-3] ' >"$tmp/t2"
cmp -s "$tmp/t1" "$tmp/t2" || bad "the same seed drew other trials"
# --config loads it; a later option wins
"$run" -q -b host -n 1 -i 100 --config "$tmp/a.json" --json "$sb" >"$tmp/r.json" 2>/dev/null
want=$(jq -r '.params.stride' "$tmp/a.json")
[ "$(jq -r '.params.stride' "$tmp/r.json")" = "$want" ] || bad "--config: stride not loaded"
"$run" -q -b host -n 1 -i 100 --config "$tmp/a.json" --stride 5 --json "$sb" >"$tmp/r.json" 2>/dev/null
[ "$(jq -r '.params.stride' "$tmp/r.json")" = 5 ] || bad "--stride after --config does not win"
# refusals
"$run" -b host --tune 2 "$sb" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- '--tune needs --config FILE' "$tmp/err" || bad "--tune without --config"
echo '{"params":{"stride":"zero"}}' >"$tmp/bad.json"
"$run" -b host --config "$tmp/bad.json" "$sb" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "'zero' is not a value of stride" "$tmp/err" || bad "bad config: $(cat "$tmp/err")"
[ $fail -eq 0 ] && ok "--tune 3 trials, config written, loaded and overridden"
finish run-tune

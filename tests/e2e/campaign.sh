#!/bin/sh
# campaign.sh - litmus-run --campaign on the host backend: a suite x grid
# writes one JSON line per finished run; SIGINT mid-run keeps every finished
# run, marks the file partial and exits non-zero; --resume completes it
# without touching what was there; shards merged by litmus-compare --merge
# hold the same runs (tests, grid points, seeds, parameters, instance
# counts) as one unsharded run.  Outcome counts are not compared: threads
# on a CPU do not repeat their timing.
. "$(dirname "$0")/lib.sh"
run=$lr compare=$lcmp
command -v jq >/dev/null 2>&1 || skip "jq is needed to read the results"
make_tmp
# the first failure ends the test: each step builds on the one before
fail() { bad "$*"; exit 1; }
tests="$top_srcdir/litmus/MP.litmus $top_srcdir/litmus/SB.litmus $top_srcdir/litmus/CoRR.litmus"
grid='stress-iterations=0,64;barrier=on,off'

# the runs, deterministic parts only, by run number
runs() { jq -s -c '[.[] | select(.run != null) | {run, test, point, seed, params: .result.params,
  instances: .result.instances, iterations: .result.iterations}] | sort_by(.run) | .[]' "$1"; }

# 1. shards merged = one unsharded run
"$run" -q -b host -n 2 -i 200 -s 7 --campaign "$tmp/all.jsonl" --grid "$grid" $tests 2>"$tmp/err" ||
  fail "unsharded campaign: $(cat "$tmp/err")"
[ "$(tail -1 "$tmp/all.jsonl")" = '{"status":"complete","done":12,"of":12}' ] || fail "unsharded: not complete"
for i in 0 1 2; do
  "$run" -q -b host -n 2 -i 200 -s 7 --campaign "$tmp/s$i.jsonl" --shard "$i/3" --grid "$grid" $tests 2>"$tmp/err" ||
    fail "shard $i: $(cat "$tmp/err")"
done
"$compare" --merge "$tmp/merged.jsonl" "$tmp/s0.jsonl" "$tmp/s1.jsonl" "$tmp/s2.jsonl" || fail "merge"
runs "$tmp/all.jsonl" >"$tmp/all.runs"
runs "$tmp/merged.jsonl" >"$tmp/merged.runs"
[ "$(wc -l <"$tmp/all.runs")" -eq 12 ] || fail "unsharded: $(wc -l <"$tmp/all.runs") runs, not 12"
cmp -s "$tmp/all.runs" "$tmp/merged.runs" || { diff "$tmp/all.runs" "$tmp/merged.runs"; fail "merged shards differ"; }
# a shard missing: the merge says so, naming the runs and the shard
esc() { printf '%s' "$1" | sed 's/[].[\*^$|]/\\&/g'; }
"$compare" --merge "$tmp/part.jsonl" "$tmp/s0.jsonl" "$tmp/s2.jsonl" 2>"$tmp/err"
[ $? -eq 1 ] || fail "merge of two of three shards did not exit 1"
sed -e "s|$(esc "$tmp/")||g" -e "s|$(esc "$top_srcdir/litmus/")|litmus/|g" "$tmp/err" >"$tmp/err2"
cat >"$tmp/want" <<'EOF2'
litmus-compare: part.jsonl: warning: 4 of 12 runs are missing: run 1 (litmus/SB.litmus at stress-iterations=0 barrier=on), run 4 (litmus/SB.litmus at stress-iterations=0 barrier=off), run 7 (litmus/SB.litmus at stress-iterations=64 barrier=on), run 10 (litmus/SB.litmus at stress-iterations=64 barrier=off); in shard 1 of 3 (not run, or not finished: --resume them)
EOF2
check_whole "$tmp/want" "$tmp/err2" "merge with a shard missing names its runs" keep
# OUT is not written over unless --force
"$compare" --merge "$tmp/part.jsonl" "$tmp/s0.jsonl" "$tmp/s2.jsonl" 2>"$tmp/err"
rc=$?
sed "s|$(esc "$tmp/")||g" "$tmp/err" >"$tmp/err2"
echo "litmus-compare: part.jsonl already exists: --force to write over it, or another name" >"$tmp/want"
[ $rc -eq 2 ] || fail "merge over an existing file: exit $rc, not 2"
check_whole "$tmp/want" "$tmp/err2" "merge over an existing file refused" keep
"$compare" --merge "$tmp/part.jsonl" --force "$tmp/s0.jsonl" "$tmp/s2.jsonl" 2>/dev/null
[ $? -eq 1 ] || fail "merge --force over an existing file did not exit 1"
# another campaign's file is refused
"$run" -q -b host -n 2 -i 200 -s 7 --campaign "$tmp/other.jsonl" --grid 'stride=4' $tests 2>/dev/null
"$compare" --merge "$tmp/bad.jsonl" "$tmp/s0.jsonl" "$tmp/other.jsonl" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "another campaign" "$tmp/err" || fail "merge of two campaigns not refused"

# 2. SIGINT mid-run, then --resume
"$run" -q -b host -n 100000000 -t 0.4 -s 9 --campaign "$tmp/int.jsonl" --grid "$grid" $tests 2>"$tmp/err" &
pid=$!
n=0
count() { c=$(grep -c '"run"' "$1" 2>/dev/null); echo "${c:-0}"; }
while [ "$(count "$tmp/int.jsonl")" -lt 2 ] && [ $n -lt 200 ]; do
  sleep 0.05
  n=$((n + 1))
done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "interrupted campaign exited $rc, not 130"
tail -1 "$tmp/int.jsonl" | grep -q '"status":"partial"' || fail "interrupted campaign not marked partial"
jq -e . "$tmp/int.jsonl" >/dev/null || fail "interrupted campaign: a line is not whole JSON"
grep '"run"' "$tmp/int.jsonl" >"$tmp/before"
k=$(wc -l <"$tmp/before")
[ "$k" -ge 2 ] && [ "$k" -lt 12 ] || fail "interrupted campaign kept $k runs"
"$run" -q -b host -n 100000000 -t 0.05 -s 9 --campaign "$tmp/int.jsonl" --grid "$grid" --resume $tests 2>"$tmp/err" ||
  fail "resume: $(cat "$tmp/err")"
[ "$(tail -1 "$tmp/int.jsonl")" = '{"status":"complete","done":12,"of":12}' ] || fail "resumed campaign not complete"
grep '"run"' "$tmp/int.jsonl" | head -n "$k" | cmp -s - "$tmp/before" || fail "resume changed finished runs"
[ "$(jq -s '[.[] | select(.run != null) | .run] | unique | length' "$tmp/int.jsonl")" -eq 12 ] ||
  fail "resumed campaign: not 12 distinct runs"
[ "$(jq -s '[.[] | select(.run != null)] | length' "$tmp/int.jsonl")" -eq 12 ] || fail "resumed campaign: a run twice"
# without --resume an existing file is not overwritten
"$run" -q -b host -n 2 -s 9 --campaign "$tmp/int.jsonl" --grid "$grid" $tests 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "already holds results: --resume" "$tmp/err" || fail "existing campaign file not protected"

# 3. --resume: what differs is named; a test is the same file however its
# path is spelled, from whatever folder; options not repeated come from the file
(cd "$abs_top_srcdir" && "$run" -q -b host -n 2 -i 200 -s 5 --campaign "$tmp/r.jsonl" --grid 'barrier=on,off' \
  litmus/MP.litmus litmus/SB.litmus 2>"$tmp/err") || fail "campaign r: $(cat "$tmp/err")"
(cd "$abs_top_srcdir" && "$run" -q -b host --campaign "$tmp/r.jsonl" --grid 'barrier=on' --resume \
  litmus/MP.litmus litmus/SB.litmus 2>"$tmp/err")
rc=$?
sed "s|$(esc "$tmp/")||g" "$tmp/err" >"$tmp/err2"
echo "litmus-run: error: r.jsonl: --resume: the file is of another campaign: grid: the file's barrier=on,off, now barrier=on" \
  >"$tmp/want"
[ $rc -eq 2 ] || fail "resume with another grid: exit $rc, not 2"
check_whole "$tmp/want" "$tmp/err2" "resume with another grid names it" keep
(cd "$abs_top_srcdir" && "$run" -q -b host --campaign "$tmp/r.jsonl" --grid 'barrier=on,off' --resume \
  litmus/MP.litmus litmus/CoRR.litmus 2>"$tmp/err")
[ $? -eq 2 ] && grep -q 'another campaign: test 2: the file.s .*litmus/SB.litmus, now .*litmus/CoRR.litmus$' "$tmp/err" &&
  ok "resume with another test names it" || fail "resume with another test: $(cat "$tmp/err")"
# a header and one run kept: the three other runs to do
head -2 "$tmp/r.jsonl" >"$tmp/r2.jsonl"
cp "$tmp/r2.jsonl" "$tmp/r3.jsonl"
# from another folder, the tests named by absolute paths
(cd / && "$run" -q -b host -n 2 -i 200 --campaign "$tmp/r2.jsonl" --grid 'barrier=on,off' --resume \
  "$abs_top_srcdir/litmus/MP.litmus" "$abs_top_srcdir/litmus/SB.litmus" 2>"$tmp/err") ||
  fail "resume from another folder, absolute paths: $(cat "$tmp/err")"
[ "$(tail -1 "$tmp/r2.jsonl")" = '{"status":"complete","done":4,"of":4}' ] && ok "resume from another folder, absolute paths" ||
  fail "resume from another folder: $(tail -1 "$tmp/r2.jsonl")"
# nothing but --campaign and --resume: backend, grid, seed, counts and tests from the file
(cd "$tmp" && "$run" -q --campaign r3.jsonl --resume 2>"$tmp/err") || fail "bare resume: $(cat "$tmp/err")"
[ "$(tail -1 "$tmp/r3.jsonl")" = '{"status":"complete","done":4,"of":4}' ] &&
  [ "$(jq -s -c '[.[] | select(.run != null) | .result.instances]' "$tmp/r3.jsonl")" = '[400,400,400,400]' ] &&
  ok "bare --campaign FILE --resume: the file's options and tests" ||
  fail "bare resume: $(tail -1 "$tmp/r3.jsonl") $(jq -s -c '[.[] | select(.run != null) | .result.instances]' "$tmp/r3.jsonl")"
echo "campaign: shards = unsharded (12 runs), SIGINT kept $k runs (exit 130, partial), --resume completed it"

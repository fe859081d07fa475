#!/bin/sh
# run-newuser.sh - what a new user met (issue 13, "tried as a new user
# would"), each now with its expected behaviour:
#   - an interrupted litmus-run exits 130 and its JSON says "partial";
#   - the first Ctrl-C during a long model check stops litmus-run;
#   - litmus-run has --engine and --timeout for its model check;
#   - litmus-gen with no arguments explains itself and writes nothing;
#   - litmus-compare on files that share no test warns and exits 2;
#   - litmus-compare -V names litmus-compare.
. "$(dirname "$0")/lib.sh"
source_models
run=$lr gen=$lgen compare=$lcmp
lit=$abs_top_srcdir/litmus
make_tmp

# interrupted run: exit 130, JSON marked partial, the counts kept
"$run" -q -b host --json -n 1000000000 -t 60 "$lit/MP.litmus" >"$tmp/mp.json" 2>"$tmp/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 130 ] && grep -q '"partial":true' "$tmp/mp.json" && grep -q 'results are partial' "$tmp/err"; then
  ok "interrupted run: exit 130, JSON says partial"
else
  bad "interrupted run: exit $rc; $(cat "$tmp/err") $(head -c 200 "$tmp/mp.json")"
fi

# first Ctrl-C during a model check that takes long (iriw-sc-12, explicit engine:
# over a minute; iriw-sc-8, whose twin readers the engine now merges, well under one)
"$gen" --family iriw-sc --size 12 -o "$tmp" || bad "litmus-gen --family iriw-sc"
"$run" -q -b host -e enum "$tmp/iriw-sc-12.litmus" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 1
start=$(date +%s)
kill -INT $pid
wait $pid
rc=$?
took=$(($(date +%s) - start))
if [ $rc -eq 130 ] && [ $took -le 2 ] && grep -q 'interrupted during the model check' "$tmp/err"; then
  ok "one Ctrl-C stops the model check"
else
  bad "Ctrl-C during the model check: exit $rc after ${took}s: $(cat "$tmp/err")"
fi

# --engine and --timeout
"$run" -q -b host -n 1 -e enum --timeout 0.3 "$tmp/iriw-sc-12.litmus" >/dev/null 2>"$tmp/err"
rc=$?
want="litmus-run: $tmp/iriw-sc-12.litmus: the model check failed: out of time (--timeout 0.3 s) while enumerating candidate executions; no verdict"
[ $rc -eq 3 ] && [ "$(cat "$tmp/err")" = "$want" ] && ok "--timeout stops the model check (exit 3)" ||
  bad "--timeout: exit $rc: $(cat "$tmp/err")"
"$run" -q -b host -n 1 --engine smt --json "$lit/SB.litmus" >"$tmp/sb.json" 2>/dev/null
grep -q '"engine":"smt"' "$tmp/sb.json" && ok "--engine smt" || bad "--engine smt: $(head -c 300 "$tmp/sb.json")"
"$run" -b host --engine fast "$lit/SB.litmus" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "litmus-run: --engine: 'fast' is not smt, enum or auto" ] &&
  ok "unknown --engine refused" || bad "--engine fast: exit $rc: $(cat "$tmp/err")"

# litmus-gen with no arguments: usage on stderr, exit 2, nothing written
mkdir "$tmp/empty"
(cd "$tmp/empty" && "$gen" >"$tmp/out" 2>"$tmp/err")
rc=$?
if [ $rc -eq 2 ] && [ -z "$(ls -A "$tmp/empty")" ] && [ ! -s "$tmp/out" ] &&
   tail -1 "$tmp/err" | grep -q '^litmus-gen: nothing written; give -o DIR'; then
  ok "litmus-gen with no arguments writes nothing"
else
  bad "litmus-gen with no arguments: exit $rc, wrote: $(ls "$tmp/empty")"
fi

# litmus-compare: files sharing no test
"$run" -q -b host -n 1 -i 100 --json "$lit/MP.litmus" >"$tmp/a.json" 2>/dev/null
"$run" -q -b host -n 1 -i 100 --json "$lit/SB.litmus" >"$tmp/b.json" 2>/dev/null
"$compare" "$tmp/a.json" "$tmp/b.json" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "litmus-compare: warning: the files share no test (tests are matched by path, name and condition): nothing to compare" ] &&
  ok "litmus-compare on files sharing no test: warning, exit 2" || bad "litmus-compare, no shared test: exit $rc: $(cat "$tmp/err")"
"$compare" "$tmp/a.json" "$tmp/a.json" >/dev/null 2>&1 && ok "litmus-compare on a shared test: exit 0" ||
  bad "litmus-compare on a shared test"
"$compare" -V | grep -q '^litmus-compare (' && ok "litmus-compare -V" || bad "litmus-compare -V: $("$compare" -V)"
# --check-sass without cuobjdump (no PyPI package either): one clean error,
# exit 77, no Python traceback; --help gives the 77 of the manual page
mkdir -p "$tmp/home"
HOME=$tmp/home PATH=/usr/bin:/bin "$run" --check-sass "$lit/MP.litmus" >"$tmp/sass.out" 2>&1
rc=$?
if grep -q 'cuobjdump not found' "$tmp/sass.out"; then
  echo "litmus-run: error: cuobjdump not found (looked at \$LC_CUOBJDUMP, the PATH, $(sed -n 's/.*, the PATH, \(.*\)\/bin and.*/\1/p' "$tmp/sass.out")/bin and python3's nvidia-cuda-cuobjdump package): the SASS check needs it" >"$tmp/sass.want"
  check_whole "$tmp/sass.want" "$tmp/sass.out" "--check-sass without cuobjdump: one line" keep
  [ $rc = 77 ] && ok "--check-sass without cuobjdump: exit 77" || bad "--check-sass without cuobjdump: exit $rc"
else
  echo "skipped: --check-sass without cuobjdump (cuobjdump in /usr/bin or the toolkit, or no NVRTC)"
fi
"$run" --help | grep -q -- '--check-sass: 77 when NVRTC or cuobjdump is missing' && ok "litmus-run --help: exit 77" ||
  bad "litmus-run --help does not give exit 77"
finish run-newuser

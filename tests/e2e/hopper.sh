#!/bin/sh
# hopper.sh - mbarrier, cluster barriers, named CTA barriers and the async
# proxy (docs/hopper.md).
#
#   hopper/NAME.expected   `litmus-check --termination litmus/hopper/NAME.litmus`,
#                          the whole output, the same from both engines, under
#                          the model PTX tests with these instructions default
#                          to (ptx-v8) and under --model ptx-v8
#   hopper/engines/*.litmus  with NAME.litmus.expected, likewise
#   hopper/NAME+OPTION=VALUE.expected  the same under --set (the open readings)
#   hopper/lower-errors    NAME|ARGS cases whose stderr is NAME.expected-err
#   hopper/lint*.expected  --lint (text, JSON) of litmus/hopper and hopper/lint-*.litmus
#   the public corpus      ptx-v8 gives ptx-v7.5's verdicts on every test of
#                          ../shared/dat3m-ptx (and its termination verdicts)
# Every shipped test also round-trips through --print.  Spellings are
# checked by tests/e2e/errors/hopper-*.litmus (errors.sh).
# `Time` lines are dropped.  PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/hopper"
make_tmp

for f in "$top_srcdir"/litmus/hopper/*.litmus; do
  name=$(basename "$f" .litmus)
  round_trips "$f"
  (cd "$top_srcdir" && "$lc" --termination --engine smt "litmus/hopper/$name.litmus" 2>/dev/null) |
    grep -v '^Time ' >"$tmp/out"
  check_whole "$dir/$name.expected" "$tmp/out" "$name (smt)"
  (cd "$top_srcdir" && "$lc" --termination --engine enum "litmus/hopper/$name.litmus" 2>/dev/null) |
    grep -v '^Time ' >"$tmp/out"
  check_whole "$dir/$name.expected" "$tmp/out" "$name (enum)" keep
  (cd "$top_srcdir" && "$lc" --termination --model ptx-v8 "litmus/hopper/$name.litmus" 2>/dev/null) |
    grep -v '^Time ' >"$tmp/out"
  check_whole "$dir/$name.expected" "$tmp/out" "$name (--model ptx-v8)" keep
done

# More mbarrier cases (transactions before their expect_tx, arrive_drop,
# state tokens, remote arrives, init ordering): whole outputs, both engines.
for f in "$dir"/engines/*.litmus; do
  name=$(basename "$f" .litmus)
  for engine in smt enum; do
    (cd "$dir/engines" && "$lc" --termination --engine "$engine" "$name.litmus" 2>/dev/null) |
      grep -v '^Time ' >"$tmp/out"
    keep=; [ "$engine" = enum ] && keep=keep
    check_whole "$f.expected" "$tmp/out" "engines/$name ($engine)" $keep
  done
done

# The two readings the ISA leaves open, under the other value of each
# option (docs/hopper.md): NAME+SETTING.expected, both engines.
while IFS='|' read -r file setting; do
  name=$(basename "$file" .litmus)
  for engine in smt enum; do
    (cd "$top_srcdir" && "$lc" --termination --engine "$engine" --set "$setting" "$file" 2>/dev/null) |
      grep -v '^Time ' >"$tmp/out"
    keep=; [ "$engine" = enum ] && keep=keep
    check_whole "$dir/$name+$setting.expected" "$tmp/out" "$name --set $setting ($engine)" $keep
  done
done <<EOF
litmus/hopper/MP+mbarrier+remote-arrive-cta.litmus|remote-arrive=thread
litmus/hopper/TMA+remote-issuer+cta-wait.litmus|remote-complete-tx=thread
tests/e2e/hopper/engines/mbar-remote-arrive-cta-wait.litmus|remote-arrive=thread
EOF

# The JSON result names the model the verdict comes from.
(cd "$top_srcdir" && "$lc" --json litmus/hopper/MP+mbarrier.litmus 2>/dev/null) >"$tmp/out"
if grep -q '"model":"PTX v8"' "$tmp/out"; then ok "JSON names PTX v8"; else bad "JSON does not name PTX v8"; cat "$tmp/out"; fi

# A CTA barrier's witness, in JSON the same words as in text, both engines.
for engine in smt enum; do
  (cd "$top_srcdir" && "$lc" --json --termination --engine "$engine" litmus/hopper/MP+bar.sync+wrong-count.litmus 2>/dev/null) >"$tmp/out"
  if grep -q '"termination":{"verdict":"may not terminate","witness":"P0 finished; P1 waits forever at barrier 1 (id 0) of CTA 0 (line 13), which expects 3 threads: arrived P0 and P1 (2 of 3), waiting P1; final memory: x=1"}' "$tmp/out"; then
    ok "JSON: the CTA barrier's witness ($engine)"
  else bad "JSON: the CTA barrier's witness ($engine)"; cat "$tmp/out"; fi
done

# --lint over the shipped tests and the lint cases: text and JSON, exit 1.
lint_files="litmus/hopper/*.litmus tests/e2e/hopper/lint-*.litmus"
# shellcheck disable=SC2086
(cd "$top_srcdir" && "$lc" --lint $lint_files) >"$tmp/out" 2>&1
rc=$?
exit_was 1 "--lint with findings"
check_whole "$dir/lint.expected" "$tmp/out" "--lint"
# shellcheck disable=SC2086
(cd "$top_srcdir" && "$lc" --lint --json $lint_files) >"$tmp/out" 2>&1
check_whole "$dir/lint-json.expected" "$tmp/out" "--lint --json"
# (MP+mbarrier+remote-arrive-cta and TMA+remote-issuer+cta-wait: P1 only
# arrives on, or completes transactions of, CTA 0's mbarrier: no remote wait)
(cd "$top_srcdir" && "$lc" --lint litmus/hopper/MP+mbarrier.litmus litmus/hopper/MP+bar.arrive+bar.sync.litmus \
  litmus/hopper/MP+mbarrier+remote-arrive-cta.litmus litmus/hopper/TMA+remote-issuer+cta-wait.litmus \
  litmus/MP.litmus) >"$tmp/out" 2>&1
rc=$?
exit_was 0 "--lint without findings"
[ -s "$tmp/out" ] && bad "--lint without findings printed something" && cat "$tmp/out"

# Errors found when lowering: NAME|ARGS, stderr in NAME.expected-err.
while IFS='|' read -r name args; do
  case "$name" in ''|'#'*) continue ;; esac
  # shellcheck disable=SC2086
  (cd "$dir" && "$lc" $args >/dev/null 2>"$tmp/err")
  rc=$?
  if [ "$rc" != 2 ]; then bad "$name: exit status $rc, expected 2"; cat "$tmp/err"; continue; fi
  check_whole "$dir/$name.expected-err" "$tmp/err" "$name"
done <"$dir/lower-errors"

# The host backend emulates mbarriers and cluster barriers on CPU threads,
# and refuses bulk copies and mapa with a reason.
run="$abs_top_builddir/src/litmus-run"
hostrun() { (cd "$top_srcdir" && "$run" -q -b host -n 3 -i 200 -s 7 "$@" 2>&1); }
hostrun litmus/hopper/MP+mbarrier.litmus >"$tmp/out"
if grep -q '^Model MP+mbarrier PTX v8: 1 allowed, 1 observed, 0 forbidden observed$' "$tmp/out"; then
  ok "host: MP+mbarrier runs, nothing forbidden"
else bad "host: MP+mbarrier"; cat "$tmp/out"; fi
hostrun litmus/hopper/MP+mbarrier+missing-arrival.litmus >"$tmp/out"
if grep -q '^Hung MP+mbarrier+missing-arrival [1-9]' "$tmp/out"; then ok "host: the missing arrival hangs"
else bad "host: MP+mbarrier+missing-arrival"; cat "$tmp/out"; fi
hostrun litmus/hopper/barrier.cluster+deadlock.litmus >"$tmp/out"
if grep -q '^Hung barrier.cluster+deadlock [1-9]' "$tmp/out"; then ok "host: the cluster barrier deadlocks"
else bad "host: barrier.cluster+deadlock"; cat "$tmp/out"; fi
hostrun litmus/hopper/MP+bar.sync+wrong-count.litmus >"$tmp/out"
if grep -q '^Hung MP+bar.sync+wrong-count [1-9]' "$tmp/out"; then ok "host: the unmet barrier count hangs"
else bad "host: MP+bar.sync+wrong-count"; cat "$tmp/out"; fi
hostrun litmus/hopper/TMA+pipeline.litmus >"$tmp/out"
rc=$?
exit_was 2 "host: TMA+pipeline refused"
grep -q 'bulk copies (TMA) and the async proxy have no CPU counterpart' "$tmp/out" ||
  { bad "host: TMA+pipeline refusal names no reason"; cat "$tmp/out"; }

corpus=${CORPUS_DIR:-$top_srcdir/../shared/dat3m-ptx}
if [ -f "$corpus/expected-v7.5.csv" ]; then
  # ptx-v8 must differ from the expected verdicts exactly where ptx-v7.5 does
  sed -n 's/^ptx-v7\.5 /ptx-v8 /p' "$top_srcdir/tests/corpus/known-differences" >"$tmp/known-v8"
  expect_verdicts "ptx-v8" "$corpus/expected-v7.5.csv" "$corpus" "$tmp/known-v8" --model ptx-v8
  n=0
  while IFS=, read -r file want; do
    case "$file" in ''|'#'*) continue ;; esac
    case "$want" in 1) expected="terminates" ;; *) expected="may not terminate" ;; esac
    for engine in enum smt; do
      got=$("$lc" --termination --model ptx-v8 --engine "$engine" "$corpus/$file" 2>/dev/null | sed -n 's/^Termination: //p')
      n=$((n + 1))
      [ "$got" = "$expected" ] || bad "$file ($engine, ptx-v8): expected '$expected', got '$got'"
    done
  done <"$corpus/expected-liveness-v7.5.csv"
  ok "ptx-v8: $n termination verdicts of the corpus compared"
else
  echo "hopper: corpus not found at $corpus; its checks skipped"
fi
finish hopper

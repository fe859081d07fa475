#!/bin/sh
# explain-corpus.sh - --explain on every test of the public corpus
# ($CORPUS_DIR) under both PTX models: no crash, no failed explanation,
# and both engines, and --engine auto (the explicit engine, Z3 where it
# runs out of nodes on tests with loops), give the same verdict and the
# same sets of named checks for every state, every state compared: each
# question has 10 s, where the slowest takes the explicit engine about
# 15 ms and Z3 0.1 s, so running out of time is a failure too.  Skipped
# (77) without the corpus.
set -u
. "$(dirname "$0")/lib.sh"
require_corpus
make_tmp
for v in 7.5 6.0; do
  sed 's/,.*//' "$CORPUS_DIR/expected-v$v.csv" | sed "s|^|$CORPUS_DIR/|" >"$tmp/files"
  for engine in smt enum auto; do
    # shellcheck disable=SC2046
    "$lc" --explain --timeout 10 --engine $engine --model "ptx-v$v" $(cat "$tmp/files") >"$tmp/out" 2>"$tmp/err"
    status=$?
    if [ $status -ne 0 ] && { [ $status -ne 3 ] || grep -q ' error:' "$tmp/err"; }; then
      echo "FAIL: ptx-v$v, $engine: exit status $status"
      grep ' error:' "$tmp/err" | head -20
      fail=1
    fi
    grep -E '^Test |^Why|^  (Forbidden|Allowed|No explanation)' "$tmp/out" |
      awk '/^Test /{t=$0; next} /^Why/{w=$0; next} {print t " | " w " | " $0}' >"$tmp/$engine"
    if grep -q '| *No explanation' "$tmp/$engine"; then
      echo "FAIL: ptx-v$v, $engine: an explanation failed"
      grep '| *No explanation' "$tmp/$engine"
      fail=1
    fi
  done
  for e in enum auto; do
    if ! diff -u "$tmp/smt" "$tmp/$e" >"$tmp/diff"; then
      echo "FAIL: ptx-v$v: smt and $e explain differently"
      head -40 "$tmp/diff"
      fail=1
    fi
  done
  echo "ptx-v$v: $(wc -l <"$tmp/smt") states explained alike, $(grep -c '| *Forbidden' "$tmp/smt") forbidden"
  # Each racy pair with an execution Z3 finds, which the explicit engine's
  # evaluation must accept (exit status 3 otherwise).
  # shellcheck disable=SC2046
  "$lc" --explain=race --timeout 10 --engine smt --model "ptx-v$v" $(cat "$tmp/files") >"$tmp/races" 2>"$tmp/err"
  status=$?
  if [ $status -ne 0 ] || grep -q '^  No execution' "$tmp/races"; then
    echo "FAIL: ptx-v$v: races with Z3: exit status $status"
    grep -B1 '^  No execution' "$tmp/races" | head -20
    fail=1
  fi
  echo "ptx-v$v: $(grep -c '^Race' "$tmp/races") racy pairs shown by Z3"
done
exit $fail

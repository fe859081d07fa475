#!/bin/sh
# explain-corpus.sh - --explain on every test of the public corpus
# ($CORPUS_DIR) under both PTX models: no crash, no failed explanation,
# and both engines give the same verdict and the same sets of named checks
# for every state.  Skipped (77) without the corpus.
set -u
top_builddir=${top_builddir:-.}
lc=$(cd "$top_builddir" && pwd)/src/litmus-check
if [ -z "${CORPUS_DIR:-}" ] || [ ! -d "$CORPUS_DIR/litmus" ]; then
  echo "SKIP: no corpus at '${CORPUS_DIR:-}' (configure --with-corpus=DIR)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for v in 7.5 6.0; do
  sed 's/,.*//' "$CORPUS_DIR/expected-v$v.csv" | sed "s|^|$CORPUS_DIR/|" >"$tmp/files"
  for engine in smt enum; do
    # shellcheck disable=SC2046
    "$lc" --explain --engine $engine --model "ptx-v$v" $(cat "$tmp/files") >"$tmp/out" 2>"$tmp/err"
    status=$?
    if [ $status -ne 0 ]; then
      echo "FAIL: ptx-v$v, $engine: exit status $status"
      grep -v 'warning' "$tmp/err" | head -20
      fail=1
    fi
    grep -E '^Test |^Why|^  (Forbidden|Allowed|No explanation)' "$tmp/out" >"$tmp/$engine"
  done
  if ! diff -u "$tmp/smt" "$tmp/enum" >"$tmp/diff"; then
    echo "FAIL: ptx-v$v: the engines explain differently"
    head -40 "$tmp/diff"
    fail=1
  fi
  echo "ptx-v$v: $(grep -c '^Why' "$tmp/smt") states explained, $(grep -c '^  Forbidden' "$tmp/smt") forbidden"
done
exit $fail

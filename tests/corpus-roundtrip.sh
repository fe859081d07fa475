#!/bin/sh
# corpus-roundtrip.sh - every classic test (litmus/*.litmus) and every test
# of the public corpus ($CORPUS_DIR) parses, and its normal form round-trips:
# `litmus-check --print` of the print is the print itself, and
# tests/lt-roundtrip finds the reparsed AST equal (lt_test_equal).
# Without the corpus the classic tests are still checked, then the test
# says so and is skipped (exit 77).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}" "${CORPUS_DIR:=}"
check=$top_builddir/src/litmus-check
roundtrip=$top_builddir/tests/lt-roundtrip
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

failed=0
passed=0
check_file() {
  if ! "$check" --print "$1" >"$tmp/first" 2>"$tmp/err"; then
    echo "FAIL: $1 does not parse:"; cat "$tmp/err"; failed=$((failed + 1)); return
  fi
  if ! "$check" --print - <"$tmp/first" >"$tmp/second" 2>"$tmp/err"; then
    echo "FAIL: the print of $1 does not parse:"; cat "$tmp/err"; failed=$((failed + 1)); return
  fi
  if ! cmp -s "$tmp/first" "$tmp/second"; then
    echo "FAIL: printing $1 is not idempotent:"; diff -u "$tmp/first" "$tmp/second"
    failed=$((failed + 1)); return
  fi
  if ! "$roundtrip" "$1"; then
    echo "FAIL: $1 does not round-trip to an equal AST"; failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}

for f in "$top_srcdir"/litmus/*.litmus; do check_file "$f"; done
echo "classic tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] || exit 1

if [ -z "$CORPUS_DIR" ] || [ ! -d "$CORPUS_DIR/litmus" ]; then
  echo "corpus not found at ${CORPUS_DIR:-(CORPUS_DIR unset)}; skipping"
  exit 77
fi
find "$CORPUS_DIR/litmus" -name '*.litmus' | LC_ALL=C sort >"$tmp/list"
total=$(wc -l <"$tmp/list")
passed=0
while IFS= read -r f; do check_file "$f"; done <"$tmp/list"
echo "corpus: $passed/$total round-trip, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -eq 138 ] && [ "$total" -eq 138 ]

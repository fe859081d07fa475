#!/bin/sh
# corpus-roundtrip.sh - every classic test (litmus/*.litmus) and every test
# of the public corpus ($CORPUS_DIR) parses, and its normal form round-trips:
# `litmus-check --print` of the print is the print itself, and
# tests/lt-roundtrip finds the reparsed AST equal (lt_test_equal).
# Without the corpus the classic tests are still checked, then the test
# says so and is skipped (exit 77).
set -u
. "$(dirname "$0")/e2e/lib.sh"
make_tmp

for f in "$top_srcdir"/litmus/*.litmus; do round_trips "$f"; done
echo "classic tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ] || exit 1

if [ -z "${CORPUS_DIR:-}" ] || [ ! -d "$CORPUS_DIR/litmus" ]; then
  skip "corpus not found at ${CORPUS_DIR:-(CORPUS_DIR unset)}"
fi
find "$CORPUS_DIR/litmus" -name '*.litmus' | LC_ALL=C sort >"$tmp/list"
total=$(wc -l <"$tmp/list")
pass=0
while IFS= read -r f; do round_trips "$f"; done <"$tmp/list"
echo "corpus: $pass/$total round-trip, $fail failed"
[ "$pass" -eq 138 ] && [ "$total" -eq 138 ] || bad "$pass of $total corpus tests round-trip, not 138 of 138"
finish corpus-roundtrip

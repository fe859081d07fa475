#!/bin/sh
# cpp-corpus.sh - the public C11 corpus (herd's C dialect) under cuda-cpp:
# every test parses and round-trips through --print, and gets the verdict
# of expected-RC11.csv with no-thin-air on and of expected-C11.csv with it
# off, or is listed with a reason in tests/corpus/cpp-known-differences.
set -u
. "$(dirname "$0")/e2e/lib.sh"
corpus=${C11_CORPUS_DIR:-$top_srcdir/../shared/dat3m-c11}
[ -f "$corpus/expected-RC11.csv" ] || skip "C11 corpus not found at $corpus (set C11_CORPUS_DIR)"
make_tmp

# parse and round-trip
find "$corpus/litmus" -name '*.litmus' | LC_ALL=C sort >"$tmp/all"
total=$(wc -l <"$tmp/all")
while IFS= read -r f; do round_trips "$f"; done <"$tmp/all"
echo "round-trip: $pass/$total"
[ "$total" -eq 137 ] || bad "$total tests in the C11 corpus, not 137"

known="$top_srcdir/tests/corpus/cpp-known-differences"
expect_verdicts nta-on "$corpus/expected-RC11.csv" "$corpus" "$known" --model cuda-cpp --set no-thin-air=on
expect_verdicts nta-off "$corpus/expected-C11.csv" "$corpus" "$known" --model cuda-cpp --set no-thin-air=off
finish cpp-corpus

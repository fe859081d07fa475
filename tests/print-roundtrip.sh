#!/bin/sh
# print-roundtrip.sh - the printer's promise over every C++ test there is:
# each test of litmus/ (all folders), the public C11 corpus (when it is at
# ../shared/dat3m-c11 or $C11_CORPUS_DIR) and 10,000 tests of
# `litmus-gen --family random-cpp` prints, the print reads back to an
# equal test (lt_test_equal) and prints the same again (tests/lt-roundtrip).
# An index expression once printed without its parentheses
# (`a[2 - i]` as `*(a + 2 - i)`, which reads back as (a + 2) - i).
set -u
. "$(dirname "$0")/e2e/lib.sh"
make_tmp

find "$top_srcdir/litmus" -name '*.litmus' | LC_ALL=C sort >"$tmp/classic"
n=$(wc -l <"$tmp/classic")
if xargs "$roundtrip" <"$tmp/classic"; then ok "litmus/: $n tests round-trip"; else bad "litmus/: a test does not round-trip"; fi

corpus=${C11_CORPUS_DIR:-$top_srcdir/../shared/dat3m-c11}
if [ -d "$corpus/litmus" ]; then
  find "$corpus/litmus" -name '*.litmus' | LC_ALL=C sort >"$tmp/c11"
  n=$(wc -l <"$tmp/c11")
  if xargs "$roundtrip" <"$tmp/c11"; then ok "C11 corpus: $n tests round-trip"; else bad "C11 corpus: a test does not round-trip"; fi
else
  echo "C11 corpus not found at $corpus: not round-tripped"
fi

"$lgen" --family random-cpp --seed 1 -n 10000 -o "$tmp/gen" >/dev/null || bad "litmus-gen --family random-cpp failed"
n=$(find "$tmp/gen" -name '*.litmus' | wc -l)
[ "$n" -eq 10000 ] || bad "litmus-gen wrote $n tests, not 10000"
if find "$tmp/gen" -name '*.litmus' | xargs "$roundtrip"; then ok "random-cpp: $n tests round-trip"; else bad "random-cpp: a test does not round-trip"; fi
finish print-roundtrip

#!/bin/sh
# corpus-verdicts.sh - every test of the public PTX corpus gets its expected
# verdict under ptx-v6.0 and ptx-v7.5, or is listed with a reason in
# tests/corpus/known-differences.
set -u
. "$(dirname "$0")/e2e/lib.sh"
corpus=${CORPUS_DIR:-$top_srcdir/../shared/dat3m-ptx}
[ -f "$corpus/expected-v7.5.csv" ] ||
  skip "corpus not found at $corpus (set CORPUS_DIR or configure --with-corpus)"
make_tmp
for v in 6.0 7.5; do
  expect_verdicts "ptx-v$v" "$corpus/expected-v$v.csv" "$corpus" "$top_srcdir/tests/corpus/known-differences" \
    --model "ptx-v$v"
done
finish corpus-verdicts

#!/bin/sh
# corpus-verdicts.sh - every test of the public PTX corpus gets its expected
# verdict under ptx-v6.0 and ptx-v7.5, or is listed with a reason in
# tests/corpus/known-differences.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
corpus=${CORPUS_DIR:-$top_srcdir/../shared/dat3m-ptx}
lc="$top_builddir/src/litmus-check"
if [ ! -f "$corpus/expected-v7.5.csv" ]; then
  echo "corpus not found at $corpus; skipping (set CORPUS_DIR or configure --with-corpus)"
  exit 77
fi
known="$top_srcdir/tests/corpus/known-differences"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for v in 6.0 7.5; do
  csv="$corpus/expected-v$v.csv"
  want=$(grep -c ',' "$csv")
  sed 's/,.*//' "$csv" | sed "s|^|$corpus/|" >"$tmp/files"
  # shellcheck disable=SC2046
  "$lc" -q -j2 --model "ptx-v$v" --expect "$csv" $(cat "$tmp/files") 2>"$tmp/err"
  rc=$?
  compared=$(sed -n 's/^expect: \([0-9]*\) tests compared.*/\1/p' "$tmp/err")
  if [ "$compared" != "$want" ]; then
    echo "FAIL ptx-v$v: compared ${compared:-0} of $want tests (exit status $rc)"
    cat "$tmp/err"
    status=1
    continue
  fi
  sed -n "s|^mismatch: $corpus/\(.*\): expected \([01]\), got \([01]\)|ptx-v$v \1 expected=\2 got=\3|p" "$tmp/err" |
    sort >"$tmp/got"
  grep "^ptx-v$v " "$known" | sort >"$tmp/known" || true
  if ! diff -u "$tmp/known" "$tmp/got"; then
    echo "FAIL ptx-v$v: mismatches differ from $known (- listed there, + found now)"
    status=1
  else
    echo "ptx-v$v: $compared tests, $(wc -l <"$tmp/got") known differences"
  fi
done
exit $status

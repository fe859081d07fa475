#!/bin/sh
# cpp-corpus.sh - the public C11 corpus (herd's C dialect) under cuda-cpp:
# every test parses and round-trips through --print, and gets the verdict
# of expected-RC11.csv with no-thin-air on and of expected-C11.csv with it
# off, or is listed with a reason in tests/corpus/cpp-known-differences.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
corpus=${C11_CORPUS_DIR:-$top_srcdir/../shared/dat3m-c11}
lc="$top_builddir/src/litmus-check"
roundtrip="$top_builddir/tests/lt-roundtrip"
if [ ! -f "$corpus/expected-RC11.csv" ]; then
  echo "C11 corpus not found at $corpus; skipping (set C11_CORPUS_DIR)"
  exit 77
fi
known="$top_srcdir/tests/corpus/cpp-known-differences"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# parse and round-trip
find "$corpus/litmus" -name '*.litmus' | LC_ALL=C sort >"$tmp/all"
total=$(wc -l <"$tmp/all")
bad=0
while IFS= read -r f; do
  if ! "$lc" --print "$f" >"$tmp/first" 2>"$tmp/err" ||
     ! "$lc" --print - <"$tmp/first" >"$tmp/second" 2>>"$tmp/err" ||
     ! cmp -s "$tmp/first" "$tmp/second" || ! "$roundtrip" "$f" 2>>"$tmp/err"; then
    echo "FAIL: $f does not parse and round-trip:"; cat "$tmp/err"; bad=$((bad + 1))
  fi
done <"$tmp/all"
echo "round-trip: $((total - bad))/$total"
[ "$bad" -eq 0 ] && [ "$total" -eq 137 ] || status=1

for setting in nta-on nta-off; do
  if [ "$setting" = nta-on ]; then csv="$corpus/expected-RC11.csv"; v=on
  else csv="$corpus/expected-C11.csv"; v=off; fi
  want=$(grep -c ',' "$csv")
  sed 's/,.*//' "$csv" | sed "s|^|$corpus/|" >"$tmp/files"
  # shellcheck disable=SC2046
  "$lc" -q -j2 --model cuda-cpp --set "no-thin-air=$v" --expect "$csv" $(cat "$tmp/files") 2>"$tmp/err"
  compared=$(sed -n 's/^expect: \([0-9]*\) tests compared.*/\1/p' "$tmp/err")
  if [ "$compared" != "$want" ]; then
    echo "FAIL $setting: compared ${compared:-0} of $want tests"
    cat "$tmp/err"
    status=1
    continue
  fi
  sed -n "s|^mismatch: $corpus/\(.*\): expected \([01]\), got \([01]\)|$setting \1 expected=\2 got=\3|p" "$tmp/err" |
    sort >"$tmp/got"
  grep "^$setting " "$known" | sort >"$tmp/known" || true
  if ! diff -u "$tmp/known" "$tmp/got"; then
    echo "FAIL $setting: mismatches differ from $known (- listed there, + found now)"
    status=1
  else
    echo "$setting: $compared tests, $(wc -l <"$tmp/got") known differences"
  fi
done
exit $status

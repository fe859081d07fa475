#!/bin/sh
# progress-verdicts.sh - litmus-check --progress all on litmus/progress/
# against tests/progress/afp-verdicts.csv: the same answers from both
# engines, the ones stored, and none contradicting the AlloyForwardProgress
# artifact's verdict (T against F, H against P); prints the agreement.
# Also whole outputs of a few, witnesses included (tests/progress/*.expected).
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
lc=$(cd "$top_builddir" && pwd)/src/litmus-check
csv="$top_srcdir/tests/progress/afp-verdicts.csv"
# The Z3 engine takes 13 s on this one (the explicit one 0.6 s): the
# explicit engine alone answers it here.
enum_only=afp-2t3i-11
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
grep -v '^#' "$csv" | cut -d, -f1 | uniq >"$tmp/tests"
while read -r t; do
  for engine in enum smt; do
    [ "$engine.$t" = "smt.$enum_only" ] && continue
    "$lc" --progress all --engine "$engine" "$top_srcdir/litmus/progress/$t.litmus" 2>/dev/null |
      sed -n 's/^Termination: \(.*\) (\(.*\))$/\2 \1/p' |
      sed 's/ terminates$/ T/; s/ may not terminate$/ H/; s/ unknown$/ U/' | sed "s/^/$t /" >>"$tmp/$engine"
  done
done <"$tmp/tests"
# every answer, as the table has it
grep -v '^#' "$csv" | awk -F, '{ print $1, $2, $4 }' >"$tmp/want"
if ! cmp -s "$tmp/want" "$tmp/enum"; then
  echo "FAIL: explicit engine's answers differ from $csv (want / got):"
  diff "$tmp/want" "$tmp/enum"
  status=1
fi
grep -v "^$enum_only " "$tmp/want" >"$tmp/want-smt"
if ! cmp -s "$tmp/want-smt" "$tmp/smt"; then
  echo "FAIL: Z3 engine's answers differ from $csv (want / got):"
  diff "$tmp/want-smt" "$tmp/smt"
  status=1
fi
# whole outputs, witnesses included: tests/progress/TEST.MODELS.expected
# holds `--progress MODELS` of litmus/progress/TEST.litmus (+ for commas)
for want in "$top_srcdir"/tests/progress/*.expected; do
  base=$(basename "$want" .expected)
  t=${base%%.*}
  models=$(echo "${base#*.}" | tr + ,)
  for engine in enum smt; do
    (cd "$top_srcdir/litmus/progress" && "$lc" --progress "$models" --engine "$engine" "$t.litmus" 2>/dev/null) |
      grep -v '^Time ' >"$tmp/out"
    if ! cmp -s "$want" "$tmp/out"; then
      echo "FAIL: $base ($engine):"
      diff "$want" "$tmp/out"
      status=1
    fi
  done
done
# JSON: TEST.MODELS.json-expected, timings and the engine's name blanked
blank='s/"seconds":[0-9][0-9.e+-]*/"seconds":0/; s/"\(lower\|encode\|flags\|states\|termination\)":[0-9][0-9.e+-]*/"\1":0/g'
blank="$blank"'; s/"solver_checks":[0-9]*/"solver_checks":0/; s/"engine":"[a-z]*"/"engine":"E"/'
for want in "$top_srcdir"/tests/progress/*.json-expected; do
  base=$(basename "$want" .json-expected)
  t=${base%%.*}
  models=$(echo "${base#*.}" | tr + ,)
  for engine in enum smt; do
    (cd "$top_srcdir/litmus/progress" && "$lc" --json --progress "$models" --engine "$engine" "$t.litmus" 2>/dev/null) |
      sed -e "$blank" >"$tmp/out"
    if ! cmp -s "$want" "$tmp/out"; then
      echo "FAIL: $base JSON ($engine):"
      diff "$want" "$tmp/out"
      status=1
    fi
  done
done
# no claim against the artifact's, and the agreement
grep -v '^#' "$csv" | awk -F, '
  $3 == "-" { next }
  { n++ }
  ($3 == "P" && $4 == "H") || ($3 == "F" && $4 == "T") { print "FAIL: " $1 " (" $2 "): the artifact says " $3 ", we say " $4; bad++ }
  ($3 == "P" && $4 == "T") || ($3 == "F" && $4 == "H") { agree++ }
  $4 == "U" { unknown++ }
  END {
    printf "progress: %d artifact verdicts: %d agree, %d unknown, %d contradict\n", n, agree, unknown, bad
    exit bad > 0
  }' || status=1
exit $status

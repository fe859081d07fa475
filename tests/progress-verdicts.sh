#!/bin/sh
# progress-verdicts.sh - litmus-check --progress all on litmus/progress/
# against tests/progress/afp-verdicts.csv: the same answers from both
# engines, the ones stored, and none contradicting the AlloyForwardProgress
# artifact's verdict (T against F, H against P); prints the agreement.
# Also whole outputs of a few, witnesses included (tests/progress/*.expected).
set -u
. "$(dirname "$0")/e2e/lib.sh"
csv="$top_srcdir/tests/progress/afp-verdicts.csv"
# The Z3 engine takes 13 s on this one (the explicit one 0.6 s): the
# explicit engine alone answers it here.
enum_only=afp-2t3i-11
make_tmp
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
check_whole "$tmp/want" "$tmp/enum" "the explicit engine's answers are $csv's" keep
grep -v "^$enum_only " "$tmp/want" >"$tmp/want-smt"
check_whole "$tmp/want-smt" "$tmp/smt" "the Z3 engine's answers are $csv's" keep
# whole outputs, witnesses included: tests/progress/TEST.MODELS.expected
# holds `--progress MODELS` of litmus/progress/TEST.litmus (+ for commas)
for want in "$top_srcdir"/tests/progress/*.expected; do
  base=$(basename "$want" .expected)
  t=${base%%.*}
  models=$(echo "${base#*.}" | tr + ,)
  for engine in enum smt; do
    (cd "$top_srcdir/litmus/progress" && "$lc" --progress "$models" --engine "$engine" "$t.litmus" 2>/dev/null) |
      grep -v '^Time ' >"$tmp/out"
    check_whole "$want" "$tmp/out" "$base ($engine)" keep
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
    check_whole "$want" "$tmp/out" "$base JSON ($engine)" keep
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
  }' || fail=$((fail + 1))
finish progress

#!/bin/sh
# termination-verdicts.sh - litmus-check --termination agrees with the 21
# termination verdicts of ../shared/dat3m-ptx/expected-liveness-v7.5.csv
# (1 = terminates, 0 = may not terminate), with both engines.
set -u
. "$(dirname "$0")/e2e/lib.sh"
corpus=${CORPUS_DIR:-$top_srcdir/../shared/dat3m-ptx}
csv="$corpus/expected-liveness-v7.5.csv"
[ -f "$csv" ] || skip "corpus not found at $corpus (set CORPUS_DIR)"
n=0
while IFS=, read -r file want; do
  case "$file" in ''|'#'*) continue ;; esac
  case "$want" in 1) expected="terminates" ;; *) expected="may not terminate" ;; esac
  for engine in enum smt; do
    got=$("$lc" --termination --engine "$engine" "$corpus/$file" 2>/dev/null | sed -n 's/^Termination: //p')
    n=$((n + 1))
    [ "$got" = "$expected" ] || bad "$file ($engine): expected '$expected', got '$got'"
  done
done <"$csv"
echo "termination: $n verdicts compared"
finish termination

#!/bin/sh
# termination-verdicts.sh - litmus-check --termination agrees with the 21
# termination verdicts of ../shared/dat3m-ptx/expected-liveness-v7.5.csv
# (1 = terminates, 0 = may not terminate), with both engines.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
corpus=${CORPUS_DIR:-$top_srcdir/../shared/dat3m-ptx}
lc="$top_builddir/src/litmus-check"
csv="$corpus/expected-liveness-v7.5.csv"
if [ ! -f "$csv" ]; then
  echo "corpus not found at $corpus; skipping (set CORPUS_DIR)"
  exit 77
fi
status=0
n=0
while IFS=, read -r file want; do
  case "$file" in ''|'#'*) continue ;; esac
  case "$want" in 1) expected="terminates" ;; *) expected="may not terminate" ;; esac
  for engine in enum smt; do
    got=$("$lc" --termination --engine "$engine" "$corpus/$file" 2>/dev/null | sed -n 's/^Termination: //p')
    n=$((n + 1))
    if [ "$got" != "$expected" ]; then
      echo "FAIL $file ($engine): expected '$expected', got '$got'"
      status=1
    fi
  done
done <"$csv"
echo "termination: $n verdicts compared"
exit $status

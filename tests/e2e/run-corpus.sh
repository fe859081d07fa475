#!/bin/sh
# run-corpus.sh - every test of the Dat3M PTX corpus on the host backend:
# none may show an outcome the PTX v7.5 model forbids or hang where the
# model says it terminates (exit 1), and none may
# fail (exit 3).  Tests the host backend refuses (proxies, aliases: exit 2)
# are counted and listed with the reason, not failed.  Short runs: this is
# a regression check of the backend and the comparison, not a stress run.
# Skipped (77) when $CORPUS_DIR is absent.
set -u
. "$(dirname "$0")/lib.sh"
source_models
run=$lr
require_corpus litmus/PTX
corpus=$CORPUS_DIR
make_tmp

ran=0 refused=0 failed=0 incomplete=0 hung=0
for f in $(find "$corpus/litmus/PTX" -name '*.litmus' | LC_ALL=C sort); do
  name=${f#"$corpus"/}
  "$run" --backend host -q --iterations 4 --instances 500 "$f" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  case $rc in
    0) ran=$((ran + 1))
       grep -q '^Cut' "$tmp/out" && incomplete=$((incomplete + 1))
       grep -q '^Hung' "$tmp/out" && hung=$((hung + 1)) ;;
    2) refused=$((refused + 1))
       echo "refused: $name: $(grep -m1 'error:' "$tmp/err" | sed 's/^.*error: //')" ;;
    1) failed=$((failed + 1)); echo "FAIL: $name: a forbidden outcome (or a hang the model rules out) was observed"
       grep '^!!!' "$tmp/out" ;;
    *) failed=$((failed + 1)); echo "FAIL: $name: exit $rc"; cat "$tmp/err" ;;
  esac
done
echo "corpus: $ran ran ($hung with hung instances, $incomplete with cut ones), $refused refused, $failed failed;" \
     "forbidden outcomes observed in $failed"
[ $failed -eq 0 ]

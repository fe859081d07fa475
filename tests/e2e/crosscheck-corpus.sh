#!/bin/sh
# crosscheck-corpus.sh - the two engines agree on every test of the public
# corpus ($CORPUS_DIR), under each shipped model.  Skipped (77) without it.
set -u
. "$(dirname "$0")/lib.sh"
export top_builddir
require_corpus
for model in ptx-v7.5 ptx-v6.0 sc; do
  "$top_srcdir/scripts/crosscheck" --dir "$CORPUS_DIR/litmus" --model "$model" || fail=1
done
exit $fail

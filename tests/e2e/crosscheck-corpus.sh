#!/bin/sh
# crosscheck-corpus.sh - the two engines agree on every test of the public
# corpus ($CORPUS_DIR), under each shipped model.  Skipped (77) without it.
set -u
srcdir=${top_srcdir:-.}
export top_builddir=${top_builddir:-.}
if [ -z "${CORPUS_DIR:-}" ] || [ ! -d "$CORPUS_DIR/litmus" ]; then
  echo "SKIP: no corpus at '${CORPUS_DIR:-}' (configure --with-corpus=DIR)"
  exit 77
fi
fail=0
for model in ptx-v7.5 ptx-v6.0 sc; do
  "$srcdir/scripts/crosscheck" --dir "$CORPUS_DIR/litmus" --model "$model" || fail=1
done
exit $fail

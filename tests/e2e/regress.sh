#!/bin/sh
# regress.sh - tests where the two engines once disagreed (or could), run
# under both engines: tests/e2e/regress/T.litmus must give exactly
# T.litmus.expected - the herd-style report without its Time line, then
# the unroll-bound warning if any - with --engine smt and --engine enum.
# A T.litmus.model file names the model (default ptx-v7.5).
# PROMOTE=1 rewrites the expected files from the SMT engine's output.
set -u
srcdir=${top_srcdir:-.}
builddir=${top_builddir:-.}
check=$builddir/src/litmus-check
case $check in /*) ;; *) check=$(pwd)/$check ;; esac
dir=$srcdir/tests/e2e/regress
# The models of the source tree, also in a separate build tree (distcheck).
export LITMUS_MODELS="${LITMUS_MODELS:-$(cd "$srcdir" && pwd)/models}"
tmp=${TMPDIR:-/tmp}/regress.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

for t in "$dir"/*.litmus; do
  name=$(basename "$t")
  model=ptx-v7.5
  [ -f "$t.model" ] && model=$(cat "$t.model")
  for engine in smt enum; do
    (cd "$dir" && "$check" --model "$model" --engine "$engine" "$name") > "$tmp/out" 2> "$tmp/err"
    rc=$?
    { grep -v '^Time ' "$tmp/out"; grep 'warning: some executions' "$tmp/err"; } > "$tmp/got"
    if [ $rc -ne 0 ]; then cat "$tmp/err"; echo "FAIL: $name ($engine): exit $rc"; fail=1; continue; fi
    if [ "${PROMOTE:-0}" = 1 ] && [ $engine = smt ]; then cp "$tmp/got" "$t.expected"; fi
    if diff -u "$t.expected" "$tmp/got"; then echo "ok: $name ($engine)"; else echo "FAIL: $name ($engine)"; fail=1; fi
  done
done
exit $fail

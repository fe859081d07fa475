#!/bin/sh
# regress.sh - tests where the two engines once disagreed (or could), run
# under both engines: tests/e2e/regress/T.litmus must give exactly
# T.litmus.expected - the herd-style report without its Time line, then
# the unroll-bound warning if any - with --engine smt and --engine enum,
# and --unroll-search, so that the warning names the bound found.
# A T.litmus.model file names the model (default ptx-v7.5).
# PROMOTE=1 rewrites the expected files from the SMT engine's output.
set -u
. "$(dirname "$0")/lib.sh"
source_models
dir=$top_srcdir/tests/e2e/regress
make_tmp

for t in "$dir"/*.litmus; do
  name=$(basename "$t")
  model=ptx-v7.5
  [ -f "$t.model" ] && model=$(cat "$t.model")
  args=   # TEST.args: options of its own (the bound's warning of a spin loop needs --all-retries)
  [ -f "$t.args" ] && args=$(cat "$t.args")
  for engine in smt enum; do
    (cd "$dir" && "$lc" --model "$model" --engine "$engine" --unroll-search $args "$name") > "$tmp/out" 2> "$tmp/err"
    rc=$?
    { grep -v '^Time ' "$tmp/out"; grep 'warning: some executions' "$tmp/err"; } > "$tmp/got"
    if [ $rc -ne 0 ]; then cat "$tmp/err"; bad "$name ($engine): exit $rc"; continue; fi
    # the SMT engine's output is the one promoted
    if [ $engine = smt ]; then check_whole "$t.expected" "$tmp/got" "$name ($engine)"
    else check_whole "$t.expected" "$tmp/got" "$name ($engine)" keep; fi
  done
done
finish regress

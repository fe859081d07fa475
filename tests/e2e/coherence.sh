#!/bin/sh
# coherence.sh - co is total per location unless the model says
# `coherence partial` (docs/model-language.md, "Coherence"):
#   tests/e2e/coherence/CoRR2.litmus under coh.cat (says nothing), coh-total.cat
#   and coh-partial.cat, both engines: the Observation lines against
#   coherence/observations.expected.  Under a total co the outcome is
#   forbidden (one write is co-last, so fr; po; rf closes a cycle); under a
#   partial co the two racing writes may stay unordered and it is allowed.
# PROMOTE=1 rewrites the expected file.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/coherence"
make_tmp

: >"$tmp/out"
for m in coh coh-total coh-partial; do
  for e in enum smt; do
    printf '%s %s: ' "$m" "$e" >>"$tmp/out"
    "$lc" -e "$e" --model "$dir/$m.cat" "$dir/CoRR2.litmus" 2>&1 | grep '^Observation' >>"$tmp/out"
  done
done
check_whole "$dir/observations.expected" "$tmp/out" "coherence total and partial"
finish coherence
